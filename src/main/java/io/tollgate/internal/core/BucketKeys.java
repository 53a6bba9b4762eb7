package io.tollgate.internal.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Builds the store key of a bucket: {@code rule + ":" + key}. A client-supplied key longer than
 * {@value #MAX_RAW_LENGTH} characters, or one that starts with {@code '#'}, is replaced by
 * {@code '#'} and its SHA-256 in base64url, so keys stay bounded and hashed keys cannot be
 * forged with a raw one.
 */
public final class BucketKeys {

    /** Longest key stored as is. */
    public static final int MAX_RAW_LENGTH = 64;

    private BucketKeys() {
    }

    /**
     * @param rule a rule name (which never contains {@code ':'})
     * @param key  the bucket key within the rule, any string
     * @return the store key
     */
    public static String of(String rule, String key) {
        if (key.length() > MAX_RAW_LENGTH || (!key.isEmpty() && key.charAt(0) == '#')) {
            key = '#' + sha256(key);
        }
        return rule + ':' + key;
    }

    private static String sha256(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}

package io.tollgate.it;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The hash by which Tollgate's events name a bucket key, worked out as the README gives it. */
final class KeyHash {

    private KeyHash() {
    }

    /** @return the SHA-256 of the key's UTF-8 in base64url without padding */
    static String of(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

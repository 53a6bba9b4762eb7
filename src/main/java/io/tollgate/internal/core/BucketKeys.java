package io.tollgate.internal.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Builds the store key of a bucket: {@code rule + ":" + key}. A client-supplied key longer than
 * {@value #MAX_RAW_LENGTH} characters, or one that starts with {@code '#'}, is replaced by
 * {@code '#'} and its SHA-256 in base64url, so keys stay bounded and hashed keys cannot be
 * forged with a raw one. The hash is taken over the key's UTF-8; a key that UTF-8 cannot encode
 * (an unpaired surrogate, which only code can produce) is hashed over its UTF-16 units instead,
 * after a byte UTF-8 never contains, so distinct keys never share a hash input.
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
            key = '#' + hash(key);
        }
        return rule + ':' + key;
    }

    /** @return whether {@code storeKey} (from {@link #of}) is a bucket of {@code rule} */
    public static boolean ofRule(String storeKey, String rule) {
        return storeKey.length() > rule.length() && storeKey.charAt(rule.length()) == ':' && storeKey.startsWith(rule);
    }

    /**
     * @param storeKey a store key made by {@link #of}
     * @return the key of the bucket that counts the denials of {@code storeKey} for a ban: {@code rule + ":#ban:" + key};
     *         no client's key is stored so (a key that starts with {@code '#'} is hashed, and a hash has no {@code ':'})
     */
    public static String banCounter(String storeKey) {
        int colon = storeKey.indexOf(':');
        return storeKey.substring(0, colon + 1) + "#ban:" + storeKey.substring(colon + 1);
    }

    /** @return whether {@code storeKey} is a client's bucket of {@code rule}: one of its keys, not a {@link #banCounter} */
    public static boolean isClientBucketOf(String storeKey, String rule) {
        return ofRule(storeKey, rule) && !storeKey.startsWith("#ban:", rule.length() + 1);
    }

    /**
     * @param storeKey a store key made by {@link #of}
     * @return the {@link #hash} of the client's key it was made from: the key stored as its hash gives it as it is
     */
    public static String hashOf(String storeKey) {
        String key = storeKey.substring(storeKey.indexOf(':') + 1);
        return !key.isEmpty() && key.charAt(0) == '#' ? key.substring(1) : hash(key);
    }

    /**
     * @return the SHA-256 of {@code key} in base64url without padding, as a long key is stored: what names
     *         a client outside Tollgate (its events) without giving its key away
     */
    public static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes(key));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /**
     * @return the key's UTF-8; or, if it has an unpaired surrogate (which UTF-8 would replace by
     *         {@code '?'}, merging distinct keys), 0xFF and then its UTF-16 units, big-endian
     */
    private static byte[] bytes(String key) {
        if (wellFormed(key)) {
            return key.getBytes(StandardCharsets.UTF_8);
        }
        byte[] units = new byte[1 + 2 * key.length()];
        units[0] = (byte) 0xFF;
        for (int i = 0; i < key.length(); i++) {
            units[1 + 2 * i] = (byte) (key.charAt(i) >> 8);
            units[2 + 2 * i] = (byte) key.charAt(i);
        }
        return units;
    }

    private static boolean wellFormed(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}

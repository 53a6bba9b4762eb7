package io.tollgate.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.Fuzz;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Store keys, over generated keys: bounded, one per distinct key (a long key is stored as its
 * SHA-256, and no raw key can pass for a hashed one), whatever the characters. Keys reach the store
 * from code too ({@code RateLimiter}, {@code @RateLimitKey}, resolvers), so any Java string may
 * arrive, unpaired surrogates included.
 */
class BucketKeysTest {

    private static final int CASES = 50_000;

    private static String sha256OfUtf8(String key) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    /** Any string at all: well-formed unicode, or with unpaired surrogates, '#' in front, around 64 characters long. */
    private static String anyKey(Random r, String previous) {
        switch (r.nextInt(6)) {
            case 0: { // the previous key with one character changed: near twins
                if (previous.isEmpty()) {
                    return "k";
                }
                int at = r.nextInt(previous.length());
                return previous.substring(0, at) + (char) r.nextInt(0x10000) + previous.substring(at + 1);
            }
            case 1: { // unpaired surrogates, and the '?' and U+FFFD an encoder would put in their place
                StringBuilder key = new StringBuilder("x".repeat(r.nextInt(80)));
                for (int i = 1 + r.nextInt(3); i > 0; i--) {
                    key.append(Fuzz.pick(r, new Character[] {'\uD800', '\uDBFF', '\uDC00', '\uDFFF', '?', '\uFFFD'}));
                }
                return key.toString();
            }
            case 2:
                return "#" + Fuzz.unicode(r, r.nextInt(70));
            case 3:
                return Fuzz.unicode(r, 60 + r.nextInt(10));
            default: {
                StringBuilder key = new StringBuilder();
                for (int i = r.nextInt(r.nextBoolean() ? 20 : 200); i > 0; i--) {
                    key.append((char) r.nextInt(0x10000)); // any UTF-16 unit, surrogates alone included
                }
                return key.toString();
            }
        }
    }

    @Test
    void distinctKeysNeverShareAStoreKeyAndEveryStoreKeyIsBounded() {
        Random r = Fuzz.random("bucket-keys");
        Map<String, String> owners = new HashMap<>();
        String previous = "";
        int hashed = 0;
        int malformed = 0;
        for (int i = 0; i < CASES; i++) {
            String key = anyKey(r, previous);
            previous = key;
            String stored = BucketKeys.of("rule", key);
            String own = stored.substring("rule:".length());
            assertThat(own.length()).as(Fuzz.show(key)).isLessThanOrEqualTo(BucketKeys.MAX_RAW_LENGTH);
            boolean raw = key.length() <= BucketKeys.MAX_RAW_LENGTH && !key.startsWith("#");
            if (raw) {
                assertThat(own).isEqualTo(key);
            } else {
                assertThat(own).as(Fuzz.show(key)).startsWith("#").hasSize(44);
            }
            hashed += raw ? 0 : 1;
            malformed += isWellFormed(key) ? 0 : 1;
            String owner = owners.putIfAbsent(stored, key);
            assertThat(owner == null || owner.equals(key))
                    .as("'%s' and '%s' share the store key %s%s", Fuzz.show(key), owner == null ? "" : Fuzz.show(owner), stored, Fuzz.replay())
                    .isTrue();
        }
        System.out.printf("bucket keys: %d generated, %d distinct, %d stored as their hash, %d with unpaired surrogates; "
                + "no two share a store key%n", CASES, owners.size(), hashed, malformed);
    }

    @Test
    void longKeysThatDifferOnlyInAnUnpairedSurrogateHaveTheirOwnBuckets() {
        String prefix = "k".repeat(80);
        assertThat(new String[] {BucketKeys.of("r", prefix + "\uD800"), BucketKeys.of("r", prefix + "\uDC00"),
            BucketKeys.of("r", prefix + "?"), BucketKeys.of("r", prefix + "\uFFFD"), BucketKeys.of("r", prefix + "\uDC00\uD800")})
                .doesNotHaveDuplicates();
    }

    @Test
    void wellFormedLongKeysAreStoredAsTheSha256OfTheirUtf8() throws Exception {
        Random r = Fuzz.random("bucket-keys-stable");
        for (int i = 0; i < 1_000; i++) {
            String key = Fuzz.unicode(r, 65 + r.nextInt(500));
            assertThat(BucketKeys.of("search", key)).isEqualTo("search:#" + sha256OfUtf8(key));
        }
        assertThat(BucketKeys.of("search", "#x")).isEqualTo("search:#" + sha256OfUtf8("#x"));
        assertThat(BucketKeys.of("search", "203.0.113.9")).isEqualTo("search:203.0.113.9");
        assertThat(BucketKeys.of("search", "")).isEqualTo("search:");
    }

    /** Whether UTF-8 can encode the key (it cannot encode an unpaired surrogate). */
    private static boolean isWellFormed(String key) {
        return StandardCharsets.UTF_8.newEncoder().canEncode(key);
    }
}

package io.tollgate.integration.hostile;

import io.tollgate.testing.Fuzz;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/** Key values no polite client sends: raw bytes, every kind of unicode, 10 000 characters, near-twins of long keys, forged hashes. */
final class KeyValues {

    private KeyValues() {
    }

    private static String sha256(String key) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    private static byte[] anyLong(Random r, List<byte[]> sent) {
        List<byte[]> longOnes = new ArrayList<>();
        for (byte[] value : sent) {
            if (value.length > 64) {
                longOnes.add(value);
            }
        }
        return longOnes.isEmpty() ? null : longOnes.get(r.nextInt(longOnes.size()));
    }

    static byte[] headerValue(Random r, List<byte[]> sent) throws Exception {
        switch (r.nextInt(9)) {
            case 0:
                return Fuzz.headerBytes(r, 1 + r.nextInt(30));
            case 1: // around the length where keys start being hashed
                return Fuzz.headerBytes(r, 60 + r.nextInt(10));
            case 2:
                return Fuzz.headerBytes(r, 1_000 + r.nextInt(9_001));
            case 3: { // a long key sent before, one byte changed anywhere
                byte[] base = anyLong(r, sent);
                if (base == null) {
                    return Fuzz.headerBytes(r, 10_000);
                }
                byte[] twin = base.clone();
                int at = r.nextBoolean() ? twin.length - 1 - r.nextInt(3) : r.nextInt(twin.length);
                twin[at] = (byte) (twin[at] == 'a' ? 'b' : 'a');
                return twin;
            }
            case 4: { // a forged hashed key: '#' and the digest of a long key sent before
                byte[] base = anyLong(r, sent);
                String target = base == null ? "x".repeat(100) : HostileApp.headerValue(base);
                return ("#" + sha256(target)).getBytes(StandardCharsets.ISO_8859_1);
            }
            case 5:
                return ("#" + Fuzz.string(r, "abcXYZ09-_", r.nextInt(70))).getBytes(StandardCharsets.ISO_8859_1);
            case 6: // unicode, as UTF-8
                return Fuzz.unicode(r, 1 + r.nextInt(r.nextBoolean() ? 20 : 3_000)).replace("\r", "").replace("\n", "")
                        .getBytes(StandardCharsets.UTF_8);
            case 7: // a key sent before, padded with the whitespace HTTP strips: the same key
                return sent.isEmpty() ? new byte[] {'k'} : (" \t" + Fuzz.latin1(sent.get(r.nextInt(sent.size()))) + " ")
                        .getBytes(StandardCharsets.ISO_8859_1);
            default:
                return sent.isEmpty() ? new byte[] {'k'} : sent.get(r.nextInt(sent.size()));
        }
    }

    static String text(Random r, List<String> sent) {
        switch (r.nextInt(6)) {
            case 0:
                return Fuzz.unicode(r, 10_000);
            case 1: {
                List<String> longOnes = sent.stream().filter(s -> s.length() > 64).collect(java.util.stream.Collectors.toList());
                String base = longOnes.isEmpty() ? "q".repeat(100) : longOnes.get(r.nextInt(longOnes.size()));
                int at = r.nextInt(base.length());
                return base.substring(0, at) + (base.charAt(at) == 'z' ? 'y' : 'z') + base.substring(at + 1);
            }
            case 2: // one code point, composed and decomposed: different strings, different buckets
                return r.nextBoolean() ? "caf\u00e9" + r.nextInt(20) : "cafe\u0301" + r.nextInt(20);
            case 3:
                return sent.isEmpty() ? "q" : sent.get(r.nextInt(sent.size()));
            default:
                return Fuzz.unicode(r, 1 + r.nextInt(r.nextBoolean() ? 20 : 300));
        }
    }
}

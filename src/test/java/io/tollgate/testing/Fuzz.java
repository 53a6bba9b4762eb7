package io.tollgate.testing;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Seeded generators for the hostile-input tests. The seed is random per run and printed; rerun a
 * failure with {@code -Dtollgate.fuzz.seed=<seed>}. Each test draws from its own {@link Random},
 * derived from the seed and the test's name, so one test replays alike whatever else runs.
 */
public final class Fuzz {

    public static final String SEED_PROPERTY = "tollgate.fuzz.seed";
    private static final long SEED = chooseSeed();

    private Fuzz() {
    }

    private static long chooseSeed() {
        String given = System.getProperty(SEED_PROPERTY);
        long seed = given == null || given.isBlank() ? new Random().nextLong() : Long.parseLong(given.trim());
        System.out.println("fuzz seed: " + seed + " (rerun with -D" + SEED_PROPERTY + "=" + seed + ")");
        return seed;
    }

    public static long seed() {
        return SEED;
    }

    /** @return a generator for the test {@code name}, the same for the same seed */
    public static Random random(String name) {
        return new Random(SEED ^ (name.hashCode() * 0x9E3779B97F4A7C15L));
    }

    /** @return what to add to an assertion so a failure says how to replay it */
    public static String replay() {
        return " [replay with -D" + SEED_PROPERTY + "=" + SEED + "]";
    }

    public static <T> T pick(Random random, T[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** @return a string of {@code length} characters drawn from {@code alphabet} */
    public static String string(Random random, String alphabet, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    /** @return {@code length} random bytes, none of them CR or LF (which end a header line) */
    public static byte[] headerBytes(Random random, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            int b;
            do {
                b = random.nextInt(256);
            } while (b == '\r' || b == '\n');
            out[i] = (byte) b;
        }
        return out;
    }

    /**
     * @return a random string of Unicode code points from every corner: C0 and C1 controls, NUL,
     *         Latin-1, letters of several scripts, combining marks, bidi and zero-width controls,
     *         the byte order mark, private use, and characters outside the BMP (surrogate pairs)
     */
    public static String unicode(Random random, int codePoints) {
        StringBuilder out = new StringBuilder(codePoints * 2);
        for (int i = 0; i < codePoints; i++) {
            int cp;
            switch (random.nextInt(10)) {
                case 0:
                    cp = random.nextInt(0x20); // C0 controls, NUL included
                    break;
                case 1:
                    cp = 0x7F + random.nextInt(0x21); // DEL and C1 controls
                    break;
                case 2:
                    cp = 0xA0 + random.nextInt(0x60); // Latin-1
                    break;
                case 3:
                    cp = pick(random, new Integer[] {0x200B, 0x200D, 0x200E, 0x202E, 0x2066, 0xFEFF, 0xFFFD, 0x0301, 0x0308});
                    break;
                case 4:
                    cp = 0x0400 + random.nextInt(0x100); // Cyrillic
                    break;
                case 5:
                    cp = 0x4E00 + random.nextInt(0x5000); // CJK
                    break;
                case 6:
                    cp = 0x1F300 + random.nextInt(0x300); // emoji, outside the BMP
                    break;
                case 7:
                    cp = 0xE000 + random.nextInt(0x1900); // private use
                    break;
                default:
                    cp = 0x21 + random.nextInt(0x5E); // printable ASCII
                    break;
            }
            out.appendCodePoint(cp);
        }
        return out.toString();
    }

    /** @return {@code text} as UTF-8, every byte percent-encoded except unreserved ASCII */
    public static String percentEncode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return out.toString();
    }

    /** @return {@code text} with every character outside printable ASCII escaped, for messages */
    public static String show(String text) {
        StringBuilder out = new StringBuilder();
        int shown = Math.min(text.length(), 120);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        if (text.length() > shown) {
            out.append("...(").append(text.length()).append(" chars)");
        }
        return out.toString();
    }

    /** @return the bytes as ISO-8859-1 text, as a server reads a header value */
    public static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}

package io.tollgate.integration.hostile;

import io.tollgate.testing.Fuzz;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Values of a cost header, from valid to every way of not being a whole number in range, and the README's verdict on them. */
final class CostValues {

    static final long MIN_COST = 1;
    static final long MAX_COST = 1000;
    static final long DEFAULT_COST = 7;

    private CostValues() {
    }


    /**
     * The README's rule: a stated cost is valid iff, without the spaces and tabs around it, it is a
     * whole number (ASCII digits only) within {@code [min-cost, max-cost]}, sent once.
     *
     * @return the stated cost, or -1 if it is invalid
     */
    static long statedCost(List<byte[]> values) {
        if (values.size() != 1) {
            return -1;
        }
        String number = HostileApp.headerValue(values.get(0));
        if (number.isEmpty() || !number.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        BigInteger cost = new BigInteger(number);
        return cost.compareTo(BigInteger.valueOf(MIN_COST)) >= 0 && cost.compareTo(BigInteger.valueOf(MAX_COST)) <= 0
                ? cost.longValueExact() : -1;
    }

    /** @return zero, a negative number, one above max-cost, beyond a long or of thousands of digits, or an edge of the range */
    static byte[] outOfRange(Random r) {
        String digits = "0123456789";
        switch (r.nextInt(4)) {
            case 0:
                return ascii(Fuzz.pick(r, new String[] {"0", "00", "-0", "+0", "0.0", "0e0", "000000000000000000000000"}));
            case 1:
                return ascii("-" + (1 + r.nextInt(1_000_000)));
            case 2: // above max-cost, beyond a long, or thousands of digits
                switch (r.nextInt(3)) {
                    case 0:
                        return ascii(Long.toString(MAX_COST + 1 + r.nextInt(1_000_000)));
                    case 1:
                        return ascii("9" + Fuzz.string(r, digits, 18 + r.nextInt(10)));
                    default:
                        return ascii("1" + Fuzz.string(r, digits, 100 + r.nextInt(4000)));
                }
            default: // the edges of the range and of a long
                return ascii(Fuzz.pick(r, new String[] {Long.toString(MIN_COST - 1), Long.toString(MIN_COST), Long.toString(MAX_COST),
                    Long.toString(MAX_COST + 1), Long.toString(Long.MAX_VALUE), "9223372036854775808", Long.toString(Long.MIN_VALUE),
                    "18446744073709551616", "4294967296", "2147483648"}));
        }
    }

    /** @return a number in another notation: a fraction, an exponent, hex, separators, a suffix, NaN, an infinity, a plus sign */
    static byte[] otherNotation(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return ascii(Fuzz.pick(r, new String[] {"1.5", "2.0", ".5", "5.", "0.999", "1000.0001", "3.14159", "1..2"}));
            case 1:
                return ascii(Fuzz.pick(r, new String[] {"1e3", "5E0", "1e-2", "2e+1", "0x10", "0X1f", "1_000", "1,000", "1 000", "0b11",
                    "017", "5d", "5f", "5L", "1/2", "2^3"}));
            case 2:
                return ascii(Fuzz.pick(r, new String[] {"NaN", "nan", "-NaN", "+NaN", "Infinity", "-Infinity", "+Infinity", "infinity",
                    "Inf", "1e999", "-1e999", "∞"}));
            default:
                return ascii("+" + (1 + r.nextInt((int) MAX_COST)));
        }
    }

    /**
     * @return what is not ASCII digits: digits of other scripts, a control character in a number,
     *         whitespace HTTP does not strip, nothing at all, raw bytes, punctuation
     */
    static byte[] notDigits(Random r) {
        switch (r.nextInt(6)) {
            case 0: // digits of other scripts, as UTF-8 or as Latin-1 bytes
                return r.nextBoolean()
                        ? Fuzz.pick(r, new String[] {"５", "٥", "۵", "५", "৫", "⁵", "₅", "Ⅴ", "𝟓", "1٠", "٣٤"}).getBytes(StandardCharsets.UTF_8)
                        : new byte[] {'1', (byte) (int) Fuzz.pick(r, new Integer[] {0xB2, 0xB3, 0xB9, 0xBD, 0xBC})};
            case 1: { // a valid number with a control character inside or at an edge
                String n = Long.toString(MIN_COST + r.nextInt((int) MAX_COST));
                int at = r.nextInt(n.length() + 1);
                char control = (char) (int) Fuzz.pick(r, new Integer[] {0, 1, 7, 8, 11, 12, 27, 31, 127, 0x85, 0xA0, 0xAD});
                return (n.substring(0, at) + control + n.substring(at)).getBytes(StandardCharsets.ISO_8859_1);
            }
            case 2: // whitespace that HTTP does not strip, or nothing but whitespace
                return (Fuzz.pick(r, new String[] {"\u000b", "\u000c", "\u00a0", "", " \t "}) + (r.nextBoolean() ? "5" : "")
                        + Fuzz.pick(r, new String[] {"\u000b", "\u00a0", "\u0000", "", " "})).getBytes(StandardCharsets.ISO_8859_1);
            case 3:
                return new byte[0];
            case 4:
                return Fuzz.headerBytes(r, 1 + r.nextInt(40));
            default:
                return ascii(Fuzz.string(r, "!#$%&'()*+,-./0123456789:;<=>?@ABCDEFZabcdefxyz[]^_`{|}~ ", 1 + r.nextInt(20)));
        }
    }

    /**
     * @return a cost in range, perhaps with leading zeros (sometimes thousands of them) and the spaces
     *         and tabs HTTP allows around a value
     */
    static byte[] valid(Random r) {
        if (r.nextInt(5) == 0) {
            return ascii("0".repeat(1 + r.nextInt(5000)) + (MIN_COST + r.nextInt((int) MAX_COST)));
        }
        return ascii(ows(r) + "0".repeat(r.nextInt(3) == 0 ? r.nextInt(30) : 0) + (MIN_COST + r.nextInt((int) MAX_COST)) + ows(r));
    }

    /** @return a value of any of the kinds above, valid a quarter of the time */
    static byte[] any(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return outOfRange(r);
            case 1:
                return otherNotation(r);
            case 2:
                return notDigits(r);
            default:
                return valid(r);
        }
    }

    /** @return 2 to 50 values for one request (the same one repeated, or each of any kind) */
    static List<byte[]> repeated(Random r) {
        List<byte[]> values = new ArrayList<>();
        int count = 2 + r.nextInt(r.nextBoolean() ? 3 : 49);
        byte[] same = any(r);
        boolean identical = r.nextBoolean();
        for (int i = 0; i < count; i++) {
            values.add(identical ? same : any(r));
        }
        return values;
    }

    private static String ows(Random r) {
        return r.nextInt(4) == 0 ? Fuzz.string(r, " \t", 1 + r.nextInt(3)) : "";
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String describe(List<byte[]> values) {
        List<String> shown = new ArrayList<>();
        for (byte[] value : values) {
            shown.add("'" + Fuzz.show(Fuzz.latin1(value)) + "'");
        }
        return values.isEmpty() ? "(no cost header)" : String.join(" + ", shown);
    }
}

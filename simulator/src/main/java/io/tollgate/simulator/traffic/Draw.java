package io.tollgate.simulator.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value drawn for each request: a fixed text, {@code uniform:1..8} (a whole number, each equally
 * likely) or {@code choice:1,1,1,10} (one of the items, repeated items weigh more). In a fixed text,
 * {@code {n}} stands for the client's number within its group (1, 2, ...).
 */
public final class Draw {

    private static final Pattern UNIFORM = Pattern.compile("uniform:\\s*(\\d+)\\s*\\.\\.\\s*(\\d+)");
    static final String HELP = "use a value, uniform:<min>..<max> or choice:<a>,<b>,...";

    private final String fixed;
    private final long min;
    private final long max;
    private final List<String> choices;
    private final String text;

    private Draw(String fixed, long min, long max, List<String> choices, String text) {
        this.fixed = fixed;
        this.min = min;
        this.max = max;
        this.choices = choices;
        this.text = text;
    }

    /** @throws IllegalArgumentException with the reason */
    public static Draw parse(String text) {
        String value = text.trim();
        if (value.startsWith("uniform:")) {
            Matcher m = UNIFORM.matcher(value);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a uniform draw; use uniform:<min>..<max>, e.g. uniform:1..8");
            }
            long min = Long.parseLong(m.group(1));
            long max = Long.parseLong(m.group(2));
            if (min > max) {
                throw new IllegalArgumentException("uniform:" + min + ".." + max + ": the minimum exceeds the maximum");
            }
            return new Draw(null, min, max, null, value);
        }
        if (value.startsWith("choice:")) {
            List<String> items = new ArrayList<>();
            for (String item : value.substring("choice:".length()).split(",")) {
                if (!item.isBlank()) {
                    items.add(item.trim());
                }
            }
            if (items.isEmpty()) {
                throw new IllegalArgumentException("an empty choice; use choice:<a>,<b>,...");
            }
            return new Draw(null, 0, 0, List.copyOf(items), value);
        }
        return new Draw(value, 0, 0, null, value);
    }

    /** A fixed value. */
    public static Draw of(String value) {
        return new Draw(value, 0, 0, null, value);
    }

    /** @return whether every value this can give is a whole number of at least {@code least} */
    public boolean wholeNumbers(long least) {
        if (fixed != null) {
            return isWhole(fixed, least);
        }
        if (choices != null) {
            return choices.stream().allMatch(c -> isWhole(c, least));
        }
        return min >= least;
    }

    private static boolean isWhole(String text, long least) {
        try {
            return Long.parseLong(text) >= least;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** @return whether every request gets the same value (no random draw) */
    public boolean isFixed() {
        return fixed != null;
    }

    /** @return a value for one request of client number {@code n} (from 1) */
    public String draw(SplittableRandom random, int n) {
        if (fixed != null) {
            return fixed.replace("{n}", Integer.toString(n));
        }
        if (choices != null) {
            return choices.get(random.nextInt(choices.size())).replace("{n}", Integer.toString(n));
        }
        return Long.toString(min == max ? min : random.nextLong(min, max + 1));
    }

    @Override
    public String toString() {
        return text;
    }
}

package io.tollgate.internal.config;

import io.tollgate.internal.core.InvalidDefinitionException;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.request.OutcomeSpec;
import io.tollgate.internal.request.PathPattern;
import io.tollgate.internal.request.TrustedGateways;
import io.tollgate.internal.request.TrustedProxies;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The parsers of the property tables; each refuses a text with the reason a problem line gives. */
final class Parsers {

    private static final Pattern HOST_PORT = Pattern.compile("[^\\s:,]+(?::(\\d{1,5}))?");
    private static final Pattern IPV4_PART = Pattern.compile("\\d{1,3}(-\\d{1,3})?");
    /** Hazelcast's address patterns ({@code 10.0.0.*}, {@code 10.0.0.1-3}), which a member list does not take. */
    private static final Pattern ADDRESS_PATTERN = Pattern.compile(".*\\*.*|[\\d.]*\\d-\\d[\\d.]*(:.*)?");
    private static final Pattern DNS_NAME = Pattern.compile("(?i)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\\.?");

    private Parsers() {
    }

    /** A whole number from {@code min} to {@code max}. */
    static Parser<Long> whole(long min, long max) {
        return text -> {
            long value;
            try {
                value = Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a whole number");
            }
            if (value < min || value > max) {
                throw new IllegalArgumentException(max == Long.MAX_VALUE ? "must be at least " + min
                        : "must be between " + min + " and " + max);
            }
            return value;
        };
    }

    /** A whole number from {@code min} to {@code max}, which fit an int. */
    static Parser<Integer> integer(int min, int max) {
        Parser<Long> whole = whole(min, max);
        return text -> whole.parse(text).intValue();
    }

    /** One of {@code values}, named in lower case with {@code -} for {@code _}, in any case. */
    static <E extends Enum<E>> Parser<E> choice(E[] values) {
        List<String> names = new ArrayList<>();
        for (E value : values) {
            names.add(value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return text -> {
            int index = names.indexOf(text.trim().toLowerCase(Locale.ROOT));
            if (index < 0) {
                throw new IllegalArgumentException("must be one of " + String.join(", ", names));
            }
            return values[index];
        };
    }

    /** One of the HTTP {@code statuses}, as a whole number. */
    static Parser<Integer> status(int... statuses) {
        String names = Arrays.stream(statuses).mapToObj(Integer::toString).collect(Collectors.joining(" or "));
        return text -> {
            String value = text.trim();
            for (int status : statuses) {
                if (value.equals(Integer.toString(status))) {
                    return status;
                }
            }
            throw new IllegalArgumentException("must be " + names);
        };
    }

    /**
     * A count of denials per period, {@code <n>/<period>} as a rate is written ({@code 10/1m}, {@code 5/30s}): a
     * limit of n per period with a burst of n.
     */
    static Parser<Limit> banAfter() {
        return text -> {
            if (!Syntax.isPerPeriod(text)) {
                throw new IllegalArgumentException("not a count of denials per period; use <n>/<period>, e.g. 10/1m or 5/30s");
            }
            if (Syntax.parseLong(text.substring(0, text.indexOf('/')), "the count") < 1) {
                throw new IllegalArgumentException("the count of denials must be at least 1");
            }
            try {
                return Syntax.limit(text, 0);
            } catch (InvalidDefinitionException e) {
                throw new IllegalArgumentException(e.field() + " " + e.reason());
            }
        };
    }

    /** {@code true} or {@code false}, in any case. */
    static Parser<Boolean> bool() {
        return text -> {
            String value = text.trim().toLowerCase(Locale.ROOT);
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("must be one of true, false");
            }
            return value.equals("true");
        };
    }

    /** A number from 0 to 1: a fraction of the wait. */
    static Parser<Double> fraction() {
        return fraction("the wait");
    }

    /** A number from 0 to 1: a fraction of {@code of}. */
    static Parser<Double> fraction(String of) {
        return text -> {
            BigDecimal value;
            try {
                value = new BigDecimal(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number between 0 and 1");
            }
            if (value.signum() < 0 || value.compareTo(BigDecimal.ONE) > 0) {
                throw new IllegalArgumentException("must be between 0 and 1 (a fraction of " + of + ")");
            }
            return value.doubleValue();
        };
    }

    /** A duration ({@link Syntax#duration}) more than 0 and at most {@code max} (written as {@code maxText}). */
    static Parser<Duration> duration(Duration max, String maxText) {
        return text -> {
            Duration value = Syntax.duration(text);
            if (value.isZero() || value.isNegative() || value.compareTo(max) > 0) {
                throw new IllegalArgumentException("must be more than 0 and at most " + maxText);
            }
            return value;
        };
    }

    /** A duration from {@code min} to {@code max} (as {@code range} writes them), or {@code 0} / {@code off} for none (zero). */
    static Parser<Duration> period(Duration min, Duration max, String range) {
        return text -> {
            String value = text.trim();
            if (value.equals("0") || value.equalsIgnoreCase("off")) {
                return Duration.ZERO;
            }
            Duration period = Syntax.duration(value);
            if (period.compareTo(min) < 0 || period.compareTo(max) > 0) {
                throw new IllegalArgumentException("must be 0 or off (never), or from " + range);
            }
            return period;
        };
    }

    /** Any text, trimmed; a blank one means the default. */
    static Parser<String> text() {
        return text -> text.isBlank() ? null : text.trim();
    }

    /** Any text, trimmed; a blank one means none. */
    static Parser<Optional<String>> optionalText() {
        return text -> Optional.of(text.trim()).filter(s -> !s.isEmpty());
    }

    /**
     * A DNS name such as a Kubernetes Service's ({@code tollgate.shop.svc.cluster.local}): labels of letters, digits
     * and inner hyphens, separated by dots; blank means none.
     */
    static Parser<Optional<String>> dnsName() {
        return text -> {
            String name = text.trim();
            if (!name.isEmpty() && (name.length() > 253 || !DNS_NAME.matcher(name).matches())) {
                throw new IllegalArgumentException("not a DNS name; use e.g. tollgate.shop.svc.cluster.local");
            }
            return Optional.of(name).filter(s -> !s.isEmpty());
        };
    }

    /** The name of a Hazelcast configuration file, which Hazelcast reads as YAML or XML; blank means none. */
    static Parser<Optional<String>> configFile() {
        return text -> {
            String path = text.trim();
            String lower = path.toLowerCase(Locale.ROOT);
            if (!path.isEmpty() && !lower.endsWith(".yaml") && !lower.endsWith(".yml") && !lower.endsWith(".xml")) {
                throw new IllegalArgumentException("not a Hazelcast configuration file; name a .yaml, .yml or .xml file");
            }
            return Optional.of(path).filter(s -> !s.isEmpty());
        };
    }

    /**
     * What Hazelcast takes as an interface: an IPv4 address whose parts may be {@code *} or a range
     * {@code 10-20}, or an IPv6 address (which may use {@code *}); blank means the default.
     */
    static Parser<String> networkInterface() {
        return text -> {
            String value = text.trim();
            if (value.isEmpty()) {
                return null;
            }
            if (!isInterface(value)) {
                throw new IllegalArgumentException(
                        "not an IP address or interface pattern; use e.g. 127.0.0.1, 10.0.0.*, 10.0.0.10-20 or fd00::1");
            }
            return value;
        };
    }

    private static boolean isInterface(String text) {
        if (text.indexOf(':') >= 0) {
            return text.chars().filter(c -> c == ':').count() >= 2 && text.chars().allMatch(c -> Character.digit(c, 16) >= 0
                    || c == ':' || c == '.' || c == '*' || c == '-');
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.equals("*")) {
                continue;
            }
            if (!IPV4_PART.matcher(part).matches()) {
                return false;
            }
            String[] range = part.split("-");
            if (Integer.parseInt(range[0]) > 255
                    || (range.length == 2 && (Integer.parseInt(range[1]) > 255 || Integer.parseInt(range[0]) > Integer.parseInt(range[1])))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A list of {@code host} or {@code host:port} (port 1 to 65535), each refused against the whole list;
     * an empty one means the default.
     *
     * @param patterns whether Hazelcast's address patterns pass ({@code 10.0.0.*}, {@code 10.0.0.1-3})
     */
    static Parser<List<String>> addresses(boolean patterns) {
        Parser<String> address = item -> {
            Matcher m = HOST_PORT.matcher(item);
            boolean port = m.matches() && (m.group(1) == null || (Integer.parseInt(m.group(1)) >= 1 && Integer.parseInt(m.group(1)) <= 65535));
            if (!port || (!patterns && ADDRESS_PATTERN.matcher(item).matches())) {
                throw new IllegalArgumentException("'" + item + "' is not host or host:port");
            }
            return item;
        };
        return text -> {
            List<String> items = CommaList.parse(text, address, false);
            return items.isEmpty() ? null : items;
        };
    }

    /** Addresses and CIDR ranges; blank means none. */
    static Parser<TrustedProxies> trustedProxies() {
        return text -> TrustedProxies.parse(CommaList.items(text));
    }

    /** Addresses and CIDR ranges; blank means none. */
    static Parser<TrustedGateways> trustedGateways() {
        return text -> TrustedGateways.parse(CommaList.items(text));
    }

    /** Path globs, each bad one refused on its own. */
    static Parser<List<PathPattern>> paths() {
        return text -> CommaList.parse(text, PathPattern::parse, true);
    }

    /** Several limits, comma-separated {@code <rate> [burst <n>]}, at most {@link TokenBucket#MAX_LIMITS}. */
    static Parser<List<Limit>> limits() {
        Parser<Limit> limit = item -> {
            try {
                return Syntax.limitItem(item);
            } catch (InvalidDefinitionException e) {
                throw new IllegalArgumentException("'" + item + "': " + e.field() + " " + e.reason());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + item + "': " + e.getMessage());
            }
        };
        return text -> {
            if (text.isBlank()) {
                throw new IllegalArgumentException("empty; give one or more <rate> [burst <n>], comma-separated");
            }
            List<Limit> limits = CommaList.parse(text, limit, false);
            if (limits.size() > TokenBucket.MAX_LIMITS) {
                throw new IllegalArgumentException(limits.size() + " limits; a rule has at most " + TokenBucket.MAX_LIMITS);
            }
            return limits;
        };
    }

    /** One limit, {@code <rate> [burst <n>]}: the bound of the limits requests carry. */
    static Parser<Limit> maxLimit() {
        Parser<List<Limit>> limits = limits();
        return text -> {
            List<Limit> bound = limits.parse(text);
            if (bound.size() != 1) {
                throw new IllegalArgumentException(bound.size() + " limits; the bound is one <rate> [burst <n>], e.g. 1000/1s burst 2000");
            }
            return bound.get(0);
        };
    }

    /**
     * Outcomes, comma-separated, each bad one refused on its own; {@code exception:} classes are looked for in the
     * application's class loader (the thread's context loader at deployment).
     */
    static Parser<OutcomeSpec> outcomes() {
        return text -> {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            ClassLoader loader = context != null ? context : Parsers.class.getClassLoader();
            return OutcomeSpec.of(CommaList.parse(text, item -> OutcomeSpec.condition(item, loader), true), text);
        };
    }
}

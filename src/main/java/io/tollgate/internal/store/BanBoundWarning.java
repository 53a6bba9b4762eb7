package io.tollgate.internal.store;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Says at WARNING, at most once a minute, that a member holds as many bans as it keeps ({@code tollgate.bans.max-entries}):
 * the rules whose denials started no ban for it, and how many bans of other members it left out since the last report.
 */
final class BanBoundWarning {

    private static final Logger LOG = Logger.getLogger(Bans.class.getName());
    private static final long EVERY_NANOS = 60_000_000_000L;
    /** Rules named in one report, at most: the keys of other members' bans are the map's, which anything may write. */
    private static final int RULES_NAMED = 8;
    private static final Pattern RULE_NAME = Pattern.compile("[A-Za-z0-9_$][A-Za-z0-9_.$-]{0,99}");

    private final int maxEntries;
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong leftOut = new AtomicLong();
    /** The rules of the keys since the last report. Guarded by itself. */
    private final Set<String> rules = new TreeSet<>();
    private final AtomicLong lastWarned = new AtomicLong(System.nanoTime() - EVERY_NANOS);

    BanBoundWarning(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /** A denial of {@code storeKey} was counted towards no ban and started none. */
    void skipped(String storeKey) {
        skipped.incrementAndGet();
        report(storeKey);
    }

    /** Another member's ban of {@code storeKey} was left out of this member's copy. */
    void leftOut(String storeKey) {
        leftOut.incrementAndGet();
        report(storeKey);
    }

    private void report(String storeKey) {
        int colon = storeKey.indexOf(':');
        String rule = colon > 0 ? storeKey.substring(0, colon) : "";
        synchronized (rules) {
            if (rules.size() < RULES_NAMED && RULE_NAME.matcher(rule).matches()) {
                rules.add(rule);
            }
        }
        long now = System.nanoTime();
        long last = lastWarned.get();
        if (now - last < EVERY_NANOS || !lastWarned.compareAndSet(last, now)) {
            return;
        }
        String named;
        synchronized (rules) {
            named = rules.isEmpty() ? "" : " for keys of rule(s) '" + String.join("', '", rules) + "'";
            rules.clear();
        }
        LOG.warning("This member holds the most bans it keeps (tollgate.bans.max-entries=" + maxEntries + "); since the last "
                + "report" + named + ", " + skipped.getAndSet(0) + " denials were counted towards no ban and started none, and "
                + leftOut.getAndSet(0) + " bans of other members were left out: those keys are limited by their buckets alone "
                + "until bans end or are lifted. Raise tollgate.bans.max-entries if this is not a flood of keys");
    }
}

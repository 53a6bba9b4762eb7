package io.tollgate.internal.store;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.TokenBucket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Temporary bans after repeated denials ({@code ban-after}, {@code ban-for}), kept as a copy on this member and
 * read from it alone: looking a key up never asks the store. Each enforced denial of a rule with a ban, of a key not
 * banned, takes one token from a second bucket of the key in the store ({@link BucketKeys#banCounter}), n per period
 * with a burst of n; a denial that takes its last whole token, or finds none, starts a ban. Taking a token is one
 * atomic step on the store, so n denials from any number of members count exactly n; and a count that finds the
 * bucket empty (the key was denied n times within the period already) bans too, so a key still denied as its ban ends
 * is banned again at its next denial, and a flood costs the store a count per ban rather than one per request. The
 * ban is shared with the other members through {@link BanSharing}, which keeps one ban per key when several members
 * start one at once: exactly one denial starts each ban. Each member drops its copy at the ban's end on its own
 * clock, whenever the store's notice of the end arrives.
 *
 * <p>A member keeps at most {@code maxEntries} bans ({@code tollgate.bans.max-entries}). While it holds that many, its
 * denials are counted towards none and start none, and other members' bans beyond them are left out of its copy (a
 * WARNING says so, at most once a minute); ended bans it still holds are dropped first. As members start bans only
 * while their copies have room, the shared bans are bounded by the members' bounds too.
 *
 * <p>The operations an operator needs ({@link #until}, {@link #lift}, {@link #list}) take the rule and the client's
 * key as the application knows them, or give keys only as their hash.
 */
public final class Bans implements AutoCloseable {

    /** The most bans a member keeps, unless {@code tollgate.bans.max-entries} says otherwise. */
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    /** The longest ban a rule can have ({@code ban-for}): one read from the store that ends later is none Tollgate wrote. */
    public static final Duration LONGEST = Duration.ofDays(7);
    private static final Logger LOG = Logger.getLogger(Bans.class.getName());
    /** How much later than {@link #LONGEST} from now a ban may end: another member's clock may be that far ahead. */
    private static final long CLOCK_SKEW_MICROS = 60_000_000;
    private static final long LONGEST_MICROS = LONGEST.toNanos() / 1_000;
    private static final long WARN_EVERY_NANOS = 60_000_000_000L;
    private static final CompletionStage<Long> NONE_STARTED = CompletableFuture.completedStage(0L);
    /** What {@link #denied} gives for a denial this member did not count, holding {@code maxEntries} bans. */
    public static final long OVER_BOUND = -1;
    private static final CompletionStage<Long> NOT_COUNTED = CompletableFuture.completedStage(OVER_BOUND);
    /** How often, at most, a full copy is searched for ended bans to drop. */
    private static final long DROP_ENDED_EVERY_MICROS = 1_000_000;

    private final BucketStore counters;
    private final Clock clock;
    private final int maxEntries;
    /** The bans this member knows of: store key to the ban's end in µs since the epoch. */
    private final Map<String, Long> copy = new ConcurrentHashMap<>();
    /** Held to add a key to {@link #copy}, so that it never holds more than {@link #maxEntries}; not to remove one. */
    private final Object adding = new Object();
    private final BanBoundWarning overBound;
    private volatile long nextDropMicros;
    private volatile BanSharing sharing;
    private final AtomicLong lastRefusalWarned = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    /**
     * @param counters where denials are counted: the store that decides, without the layers that answer in its place
     *                 (a reserve or a remembered denial would not count exactly)
     * @param clock    the clock a ban's end is set and compared on
     */
    public Bans(BucketStore counters, Clock clock, BanSharing sharing) {
        this(counters, clock, sharing, DEFAULT_MAX_ENTRIES);
    }

    /** @param maxEntries the most bans this member keeps ({@code tollgate.bans.max-entries}), at least 1 */
    public Bans(BucketStore counters, Clock clock, BanSharing sharing, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries = " + maxEntries + ": must be at least 1");
        }
        this.counters = counters;
        this.clock = clock;
        this.sharing = sharing;
        this.maxEntries = maxEntries;
        this.overBound = new BanBoundWarning(maxEntries);
    }

    /** @return bans of this JVM only, counted in {@code store} (on its clock, if it is the in-memory store) */
    public static Bans local(BucketStore store) {
        return local(store, DEFAULT_MAX_ENTRIES);
    }

    /** @return bans of this JVM only, at most {@code maxEntries}, counted in {@code store} */
    public static Bans local(BucketStore store, int maxEntries) {
        if (store instanceof InMemoryBucketStore memory) {
            return new Bans(memory, memory.clock(), BanSharing.local(memory::reset), maxEntries);
        }
        return new Bans(store, Clock.SYSTEM, BanSharing.local(key -> { }), maxEntries);
    }

    /** Shares this member's bans from now on through {@code sharing}, which then keeps the copy up to date. */
    public void share(BanSharing sharing) {
        this.sharing = sharing;
    }

    /**
     * The hot path: a look-up in this member's copy, never a call to the store.
     *
     * @return µs left of {@code storeKey}'s ban; 0 if it has none (an ended ban is dropped from the copy here)
     */
    public long leftMicros(String storeKey) {
        if (copy.isEmpty()) {
            return 0;
        }
        Long until = copy.get(storeKey);
        if (until == null) {
            return 0;
        }
        long left = until - clock.nowMicros();
        if (left > 0) {
            return left;
        }
        copy.remove(storeKey, until);
        return 0;
    }

    /**
     * Counts one enforced denial of {@code storeKey}, unless its ban already holds here (a denial decided as it began),
     * or this member holds as many bans as it keeps.
     *
     * @param counter        the rule's counting bucket ({@code ban-after})
     * @param durationMicros the rule's {@code ban-for}
     * @return the end of the ban this denial started (µs since the epoch), 0 if it started none, or {@link #OVER_BOUND}
     *         if this member holds as many bans as it keeps (then the denial started none, and was not counted unless
     *         the bound was reached meanwhile); completes exceptionally if the store could not count it
     */
    public CompletionStage<Long> denied(String storeKey, TokenBucket counter, long durationMicros) {
        if (leftMicros(storeKey) > 0) {
            return NONE_STARTED;
        }
        if (!hasRoom(storeKey)) {
            overBound.skipped(storeKey);
            return NOT_COUNTED;
        }
        return counters.acquire(BucketKeys.banCounter(storeKey), counter, 1).thenCompose(outcome ->
                outcome.allowed() && outcome.remaining() > 0 ? NONE_STARTED : start(storeKey, durationMicros));
    }

    /**
     * The key's count is empty: starts its ban, unless it has one already (another denial's, on this member or, as
     * the sharing finds, on another one: this member then keeps that one).
     */
    private CompletionStage<Long> start(String storeKey, long durationMicros) {
        long now = clock.nowMicros();
        long until = now + durationMicros;
        synchronized (adding) {
            Long current = copy.get(storeKey);
            if (current != null && current > now) {
                return NONE_STARTED;
            }
            if (!hasRoom(storeKey)) {
                overBound.skipped(storeKey);
                return NOT_COUNTED;
            }
            copy.put(storeKey, until);
        }
        return sharing.start(storeKey, until, durationMicros, now).thenApply(other -> {
            if (other.isEmpty()) {
                return until;
            }
            copy.replace(storeKey, until, other.getAsLong());
            return 0L;
        });
    }

    /**
     * @return whether the copy has room for a ban of {@code storeKey}: it holds one already, or fewer than
     *         {@code maxEntries} bans, once the ended ones are dropped
     */
    private boolean hasRoom(String storeKey) {
        return copy.size() < maxEntries || copy.containsKey(storeKey) || dropEnded();
    }

    /**
     * Drops the ended bans the copy still holds (those of the in-memory store, which tells no end, and ends whose notice
     * was missed), at most once a second.
     *
     * @return whether the copy then holds fewer than {@code maxEntries}
     */
    private boolean dropEnded() {
        long now = clock.nowMicros();
        if (now < nextDropMicros) {
            return false;
        }
        nextDropMicros = now + DROP_ENDED_EVERY_MICROS;
        copy.entrySet().removeIf(ban -> ban.getValue() <= now);
        return copy.size() < maxEntries;
    }

    /**
     * @return whether {@code value}, read from the store, is a current ban at {@code nowMicros}: a {@code Long} after it,
     *         no later than {@link #LONGEST} from it (and the clock skew members may have); else it is over, or none
     *         Tollgate wrote
     */
    public static boolean isCurrent(Object value, long nowMicros) {
        return written(value, nowMicros) && (Long) value > nowMicros;
    }

    /** @return whether {@code value}, read from the store, is a ban's end Tollgate could have written at {@code nowMicros} */
    private static boolean written(Object value, long nowMicros) {
        return value instanceof Long until && until <= nowMicros + LONGEST_MICROS + CLOCK_SKEW_MICROS;
    }

    /**
     * Another member's ban (or this one's, as the store tells it back): kept until {@code untilMicros}, if it is one
     * Tollgate wrote: a {@code Long} no later than {@link #LONGEST} from now. Anything else (a ban of a week and more, a
     * value of another type: a write to the store by anything but Tollgate) is left out, and said at WARNING (once a
     * minute), so that one hostile write cannot deny a key for good. A ban already over replaces none; a new one beyond
     * {@code maxEntries} bans is left out, and said at WARNING (once a minute).
     */
    public void copied(String storeKey, Object untilMicros) {
        long now = clock.nowMicros();
        if (!written(untilMicros, now)) {
            refused(storeKey, untilMicros);
            return;
        }
        long until = (Long) untilMicros;
        if (until <= now) {
            copy.remove(storeKey, until); // not a newer ban of the key, started since
            return;
        }
        synchronized (adding) {
            if (hasRoom(storeKey)) {
                copy.put(storeKey, until);
                return;
            }
        }
        overBound.leftOut(storeKey);
    }

    private void refused(String storeKey, Object value) {
        long now = System.nanoTime();
        long last = lastRefusalWarned.get();
        if (now - last >= WARN_EVERY_NANOS && lastRefusalWarned.compareAndSet(last, now)) {
            LOG.warning("A ban in the store that Tollgate did not write is left out (key hash " + BucketKeys.hashOf(storeKey)
                    + ": " + (value instanceof Long until ? "it ends " + Clock.instant(until) + ", more than " + LONGEST.toDays()
                    + " days from now" : "a " + (value == null ? "null" : value.getClass().getName()) + " where the end of a ban "
                    + "belongs") + "); anything with write access to the map can write there");
        }
        copy.remove(storeKey);
    }

    /**
     * A ban ended or lifted in the store.
     *
     * @param untilMicros the end of the ban that ended, or {@code null} (or anything but a {@code Long}) if not known: then
     *                    whatever ban the key has
     */
    public void dropped(String storeKey, Object untilMicros) {
        if (untilMicros instanceof Long until) {
            copy.remove(storeKey, until);
        } else {
            copy.remove(storeKey);
        }
    }

    /**
     * Makes this member's copy what the store holds: its bans are added or updated, and the bans it no longer holds
     * are dropped (lifted or ended elsewhere, while this member missed the news).
     *
     * @param stored every ban of the store, store key to its end in µs since the epoch
     */
    public void reconcile(Map<String, ?> stored) {
        copy.keySet().removeIf(key -> !stored.containsKey(key));
        stored.forEach(this::copied);
    }

    /** @return the bans this member's copy holds, ended ones not yet dropped included */
    public int size() {
        return copy.size();
    }

    /** @return the most bans this member keeps */
    public int maxEntries() {
        return maxEntries;
    }

    /** Every ban was dropped from the store at once. */
    public void droppedAll() {
        copy.clear();
    }

    /** @return when the ban of {@code key} by {@code rule} ends, if it has one */
    public Optional<Instant> until(String rule, String key) {
        String storeKey = BucketKeys.of(rule, key);
        Long until = leftMicros(storeKey) == 0 ? null : copy.get(storeKey);
        return until == null ? Optional.empty() : Optional.of(Clock.instant(until));
    }

    /**
     * Ends the ban of {@code key} by {@code rule} on every member, and forgets its counted denials: a new ban takes
     * n new denials.
     *
     * @return whether it had a ban
     */
    public boolean lift(String rule, String key) {
        String storeKey = BucketKeys.of(rule, key);
        boolean banned = leftMicros(storeKey) > 0;
        copy.remove(storeKey);
        sharing.lifted(storeKey, BucketKeys.banCounter(storeKey));
        return banned;
    }

    /** @return the current bans of {@code rule}, their keys hashed as events give them */
    public List<BannedKey> list(String rule) {
        String prefix = rule + ':';
        long now = clock.nowMicros();
        List<BannedKey> bans = new ArrayList<>();
        copy.forEach((storeKey, until) -> {
            if (storeKey.startsWith(prefix) && until > now) {
                bans.add(new BannedKey(BucketKeys.hashOf(storeKey), Clock.instant(until)));
            }
        });
        return bans;
    }

    @Override
    public void close() {
        sharing.close();
        copy.clear();
    }
}

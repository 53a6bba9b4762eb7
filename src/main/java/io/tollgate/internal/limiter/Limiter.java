package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.config.BanRule;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.Mode;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.StoreFailurePolicy;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.RecentDenials;
import io.tollgate.internal.store.StoreCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decides one rule for one key: one store call, bounded by the store timeout. A failure or timeout
 * is answered by the rule's {@code on-store-failure} policy and charges nothing the caller knows of;
 * a rule in shadow mode never denies. A key banned by its rule ({@code ban-after}) is denied from this member's
 * copy of the bans, without asking the store; each enforced denial the store makes for a rule with a ban is
 * counted towards one ({@link Bans#denied}). With a quorum, a store whose cluster has fewer members than it is not asked:
 * each decision is answered by the policy, as for a store that failed.
 */
public final class Limiter {

    private static final Logger LOG = Logger.getLogger(Limiter.class.getName());
    private static final Object TIMED_OUT = new Object();
    /** The wait suggested to callers denied because the store is unavailable. */
    static final long STORE_FAILURE_RETRY_MICROS = 1_000_000;

    private final BucketStore store;
    /** Where a store's failure is answered with a denial for a key seen denied moments ago. */
    private final RecentDenials recentDenials;
    private final long timeoutNanos;
    private final DecisionObserver observer;
    private final Bans bans;
    private final StoreCluster cluster;
    /** Fewer members than this, and the store is not asked; 0 for no quorum. */
    private final int quorum;
    private final LocalShares localShares;
    private final ThrottledLog storeFailures = ThrottledLog.of(LOG, Level.WARNING);
    private final ThrottledLog shadowDenials = ThrottledLog.of(LOG, Level.INFO);
    private final ThrottledLog denials = ThrottledLog.of(LOG, Level.FINE);
    private final ThrottledLog uncounted = ThrottledLog.of(LOG, Level.WARNING);
    private final ThrottledLog banLog = ThrottledLog.of(LOG, Level.INFO);
    private final ThrottledLog refundFailures = ThrottledLog.of(LOG, Level.WARNING);

    public Limiter(BucketStore store, Duration timeout) {
        this(store, timeout, DecisionObserver.NONE);
    }

    /** Bans, if a rule has them, are kept in this JVM only ({@link Bans#local}). */
    public Limiter(BucketStore store, Duration timeout, DecisionObserver observer) {
        this(store, timeout, observer, Bans.local(store));
    }

    /** @param bans the bans of the rules that have them, and where their denials are counted */
    public Limiter(BucketStore store, Duration timeout, DecisionObserver observer, Bans bans) {
        this(store, timeout, observer, bans, StoreCluster.ALONE, 0);
    }

    /**
     * @param cluster the store's cluster: the members the quorum counts, the instances a local share divides by
     * @param quorum  fewer members than this, and each decision is answered by its rule's policy; 0 for none
     */
    public Limiter(BucketStore store, Duration timeout, DecisionObserver observer, Bans bans, StoreCluster cluster, int quorum) {
        this.bans = bans;
        this.cluster = cluster;
        this.quorum = quorum;
        this.localShares = new LocalShares(cluster, Clock.SYSTEM);
        this.store = store;
        this.recentDenials = RecentDenials.of(store);
        this.timeoutNanos = timeout.toNanos();
        this.observer = observer;
    }

    /**
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost the rule can never grant, before anything is sent
     */
    public Decision check(RuleConfig rule, String key, long cost) {
        return check(rule.live(), key, cost);
    }

    /**
     * Decides by one snapshot of the rule's live part: the limits of the key's bucket, its mode and policy.
     *
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost the rule can never grant, before anything is sent
     */
    public Decision check(LiveRule live, String key, long cost) {
        return check(live, live.limits(key), key, cost);
    }

    /**
     * Decides by one snapshot of the rule's live part and {@code limits}, the limits of the key for its request.
     *
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost the limits can never grant, before anything is sent
     */
    public Decision check(LiveRule live, BucketLimits limits, String key, long cost) {
        limits.bucket().checkCost(cost);
        Decision banned = banned(live, limits, key, cost);
        return banned != null ? banned : decide(live, limits, key, cost);
    }

    /**
     * Decides by the store, the key's ban already looked up ({@link #banned}): {@link RequestGate} looks up the bans of
     * every rule of a request before it charges any, and does not look again.
     *
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost the limits can never grant, before anything is sent
     */
    public Decision decide(LiveRule live, BucketLimits limits, String key, long cost) {
        RuleConfig rule = live.rule();
        TokenBucket bucket = limits.bucket();
        bucket.checkCost(cost);
        long start = System.nanoTime();
        String storeKey = BucketKeys.of(rule.name(), key);
        Decision decision;
        try {
            if (belowQuorum()) {
                throw new QuorumLostException(cluster.members(), quorum);
            }
            Outcome outcome = store.acquire(storeKey, bucket, cost).toCompletableFuture().get(timeoutNanos, TimeUnit.NANOSECONDS);
            decision = decided(live, bucket, cost, outcome);
            if (!outcome.allowed() && !outcome.isRemembered() && live.fromRequest() != null) {
                retain(storeKey, bucket);
            }
        } catch (TimeoutException e) {
            decision = storeFailed(live, limits, key, storeKey, cost, null);
        } catch (ExecutionException e) {
            decision = storeFailed(live, limits, key, storeKey, cost, e.getCause() != null ? e.getCause() : e);
        } catch (RuntimeException e) {
            decision = storeFailed(live, limits, key, storeKey, cost, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            decision = storeFailed(live, limits, key, storeKey, cost, e);
        }
        BanRule enforcedBan = live.enforcedBan();
        CompletableFuture<Long> ban = countsTowardBan(enforcedBan, decision) ? count(enforcedBan, storeKey) : null;
        long until = ban == null ? 0 : awaitCount(ban, rule, key);
        observer.decided(rule, key, decision, System.nanoTime() - start);
        counted(rule, key, until);
        return decision;
    }

    /**
     * The answer to a key its rule bans, from this member's copy of the bans: never a call to the store.
     *
     * @param limits the limits of the key for its request, which the answer names
     * @return the ban's answer (told to the observer), or {@code null} if the key is not banned
     */
    public Decision banned(LiveRule live, BucketLimits limits, String key, long cost) {
        if (live.enforcedBan() == null) {
            return null;
        }
        RuleConfig rule = live.rule();
        long start = System.nanoTime();
        Decision decision = banAnswer(live, limits.bucket(), BucketKeys.of(rule.name(), key), cost);
        if (decision != null) {
            observer.decided(rule, key, decision, System.nanoTime() - start);
        }
        return decision;
    }

    private Decision banAnswer(LiveRule live, TokenBucket bucket, String storeKey, long cost) {
        if (live.enforcedBan() == null) {
            return null;
        }
        long left = bans.leftMicros(storeKey);
        return left == 0 ? null : Decisions.banned(live.rule().name(), cost, bucket.burst(0), left);
    }

    /** @return the bans of this limiter's rules: look-ups, lifts and lists for operators */
    public Bans bans() {
        return bans;
    }

    /** Only the store's own denials of an enforced rule count: not a policy's answer, nor a shadow rule's. */
    private static boolean countsTowardBan(BanRule enforcedBan, Decision decision) {
        return enforcedBan != null && !decision.allowed() && !decision.storeUnavailable();
    }

    /**
     * @return the end of the ban the denial started (µs since the epoch), 0 for none, {@link Bans#OVER_BOUND} if this
     *         member holds as many bans as it keeps; completes exceptionally if not counted
     */
    private CompletableFuture<Long> count(BanRule ban, String storeKey) {
        try {
            return bans.denied(storeKey, ban.counter(), ban.durationMicros()).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Waits for the count of a denial, at most the store timeout. A count that comes later still starts its ban, and
     * the observer is told then, on the thread that completes it.
     */
    private long awaitCount(CompletableFuture<Long> ban, RuleConfig rule, String key) {
        try {
            return ban.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            later(ban, rule, key);
        } catch (ExecutionException e) {
            notCounted(rule, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            later(ban, rule, key);
        }
        return 0;
    }

    private void later(CompletableFuture<Long> ban, RuleConfig rule, String key) {
        ban.whenComplete((until, failure) -> {
            if (failure != null) {
                notCounted(rule, failure);
            } else {
                counted(rule, key, until);
            }
        });
    }

    /** @param until what counting a denial gave: the end of the ban it started, 0, or {@link Bans#OVER_BOUND} */
    private void counted(RuleConfig rule, String key, long until) {
        if (until > 0) {
            started(rule, key, until);
        } else if (until == Bans.OVER_BOUND) {
            observer.banSkipped(rule, key);
        }
    }

    /**
     * A denial writes nothing, so the bucket would expire as the limits that last wrote it say; a request that brings
     * its own limits ({@code limits-from}) may bring stricter ones (a downgraded plan): the bucket is kept until they
     * have refilled it. Not waited for; only after a denial the store made, not one this member remembered.
     */
    private void retain(String storeKey, TokenBucket bucket) {
        store.retain(storeKey, bucket).whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.log(Level.FINE, "A bucket could not be kept for the request's own limits", failure);
            }
        });
    }

    private void started(RuleConfig rule, String key, long untilMicros) {
        Instant until = Clock.instant(untilMicros);
        if (banLog.due()) {
            banLog.write("Rule '" + rule.name() + "' banned a key until " + until + " after repeated denials", null);
        }
        observer.banned(rule, key, until);
    }

    /** A denial the store could not count starts no ban: bans err towards letting clients through. */
    private void notCounted(RuleConfig rule, Throwable cause) {
        if (uncounted.due()) {
            uncounted.write("Rate-limit store could not count a denial of rule '" + rule.name() + "' towards a ban; "
                    + "it is not counted", cause);
        }
    }

    /** Like {@link #check}, without blocking: the stage completes when the store answers or the timeout passes. */
    public CompletableFuture<Decision> checkAsync(RuleConfig rule, String key, long cost) {
        LiveRule live = rule.live();
        BucketLimits limits = live.limits(key);
        TokenBucket bucket = limits.bucket();
        bucket.checkCost(cost);
        long start = System.nanoTime();
        String storeKey = BucketKeys.of(rule.name(), key);
        Decision banned = banAnswer(live, bucket, storeKey, cost);
        if (banned != null) {
            observer.decided(rule, key, banned, System.nanoTime() - start);
            return CompletableFuture.completedFuture(banned);
        }
        // the store's outcome or failure, or TIMED_OUT: whichever comes first is the one answer decided on
        CompletableFuture<Object> answer = new CompletableFuture<>();
        try {
            if (belowQuorum()) {
                throw new QuorumLostException(cluster.members(), quorum);
            }
            store.acquire(storeKey, bucket, cost).whenComplete((outcome, failure) -> answer.complete(failure == null ? outcome : failure));
        } catch (RuntimeException e) {
            answer.complete(e);
        }
        return answer.completeOnTimeout(TIMED_OUT, timeoutNanos, TimeUnit.NANOSECONDS).thenApply(first -> {
            Decision decision = first instanceof Outcome outcome ? decided(live, bucket, cost, outcome)
                    : storeFailed(live, limits, key, storeKey, cost, first == TIMED_OUT ? null : (Throwable) first);
            observer.decided(rule, key, decision, System.nanoTime() - start);
            BanRule enforcedBan = live.enforcedBan();
            if (countsTowardBan(enforcedBan, decision)) {
                later(count(enforcedBan, storeKey), rule, key); // not waited for: the ban starts as the count comes back
            }
            return decision;
        });
    }

    /**
     * Gives {@code tokens} back to the bucket {@code key} of {@code rule}, each limit capped at its burst (a missing
     * bucket is full and stays so). Best effort: a store that fails or does not answer within the timeout is logged
     * (throttled) and told to the observer, and the tokens stay charged; the caller goes on either way.
     *
     * @return the bucket after the refund (its {@link Decision#cost()} the tokens given back), or {@code null} if
     *         the store did not take it
     * @throws IllegalArgumentException for tokens outside 1 to the smallest burst of the key's limits (its override's,
     *         else the rule's), before anything is sent
     */
    public Decision refund(RuleConfig rule, String key, long tokens) {
        return refund(rule, rule.live().limits(key), key, tokens);
    }

    /**
     * {@link #refund(RuleConfig, String, long)} to the bucket as {@code limits} define it: the limits that charged
     * the request.
     */
    public Decision refund(RuleConfig rule, BucketLimits limits, String key, long tokens) {
        TokenBucket bucket = limits.bucket();
        if (tokens < 1 || tokens > bucket.maxCost()) {
            throw new IllegalArgumentException("tokens = " + tokens + ": must be between 1 and " + bucket.maxCost()
                    + ", the smallest burst of rule '" + rule.name() + "'");
        }
        String storeKey = BucketKeys.of(rule.name(), key);
        Throwable failure;
        try {
            Outcome outcome = store.refund(storeKey, bucket, tokens).toCompletableFuture().get(timeoutNanos, TimeUnit.NANOSECONDS);
            observer.refunded(rule, key, tokens, false);
            return Decisions.of(rule.name(), bucket, tokens, outcome);
        } catch (TimeoutException e) {
            failure = null;
        } catch (ExecutionException e) {
            failure = e.getCause() != null ? e.getCause() : e;
        } catch (RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = e;
        }
        if (refundFailures.due()) {
            refundFailures.write("Rate-limit store " + (failure == null ? "did not answer within "
                    + Duration.ofNanos(timeoutNanos).toMillis() + " ms" : "failed") + " to refund " + tokens
                    + " tokens for rule '" + rule.name() + "'; they stay charged", failure);
        }
        observer.refunded(rule, key, tokens, true);
        return null;
    }

    private Decision decided(LiveRule live, TokenBucket bucket, long cost, Outcome outcome) {
        RuleConfig rule = live.rule();
        Decision decision = Decisions.of(rule.name(), bucket, cost, outcome);
        if (decision.allowed()) {
            return decision;
        }
        if (live.mode() == Mode.SHADOW) {
            if (shadowDenials.due()) {
                shadowDenials.write("Shadow rule '" + rule.name() + "' would have denied a request (retry after "
                        + decision.retryAfterSeconds() + " s)", null);
            }
            return Decisions.shadow(decision);
        }
        if (denials.due()) {
            denials.write("Rule '" + rule.name() + "' denied a request (retry after " + decision.retryAfterSeconds() + " s)", null);
        }
        return decision;
    }

    /** @return whether the store's cluster has fewer members than the quorum, so that it is not asked */
    private boolean belowQuorum() {
        return quorum > 0 && cluster.members() < quorum;
    }

    /**
     * The answer without the store: the rule's {@code on-store-failure} policy. {@code local} decides on this
     * instance's share of the key's limits ({@link LocalShares}). A key this member saw denied moments ago is denied
     * even under {@code allow}: it is hot, and a store slow under that load is no reason to let its flood through.
     */
    private Decision storeFailed(LiveRule live, BucketLimits limits, String key, String storeKey, long cost, Throwable cause) {
        RuleConfig rule = live.rule();
        TokenBucket bucket = limits.bucket();
        StoreFailurePolicy policy = live.onStoreFailure();
        Decision decision;
        boolean hot;
        if (policy == StoreFailurePolicy.LOCAL) {
            hot = recentDenials.recentlyDenied(storeKey, 1); // any denial: the share starts empty
            Decision local = localShares.decide(rule.name(), storeKey, limits, cost, hot);
            decision = local != null ? local
                    : Decisions.storeUnavailable(rule.name(), false, cost, bucket.burst(0), STORE_FAILURE_RETRY_MICROS);
        } else {
            hot = recentDenials.recentlyDenied(storeKey, cost);
            decision = Decisions.storeUnavailable(rule.name(), policy == StoreFailurePolicy.ALLOW && !hot, cost, bucket.burst(0),
                    STORE_FAILURE_RETRY_MICROS);
        }
        if (storeFailures.due()) {
            String what = cause == null ? "did not answer within " + Duration.ofNanos(timeoutNanos).toMillis() + " ms"
                    : cause instanceof QuorumLostException ? "was not asked: " + cause.getMessage()
                    : cause instanceof InterruptedException ? "was interrupted" : "failed";
            String answered = policy == StoreFailurePolicy.LOCAL ? "deciding on this instance's share of the rule, 1/"
                    + Math.max(1, cluster.instances()) + " (" + (decision.allowed() ? "allowed" : "denied") + ")"
                    : decision.allowed() ? "allowing the request" : "denying the request";
            storeFailures.write("Rate-limit store " + what + " for rule '" + rule.name() + "'; " + answered
                    + " (on-store-failure=" + policy.name().toLowerCase(java.util.Locale.ROOT)
                    + (hot && policy != StoreFailurePolicy.LOCAL ? ", and the key was denied moments ago" : "") + ")",
                    cause instanceof QuorumLostException ? null : cause);
        }
        Decision answer = live.mode() == Mode.SHADOW ? Decisions.shadow(decision) : decision;
        observer.storeFailed(rule, key, cause == null, answer);
        return answer;
    }
}

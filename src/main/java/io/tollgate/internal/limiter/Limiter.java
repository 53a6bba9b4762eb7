package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.Mode;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.StoreFailurePolicy;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.RecentDenials;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decides one rule for one key: one store call, bounded by the store timeout. A failure or timeout
 * is answered by the rule's {@code on-store-failure} policy and charges nothing the caller knows of;
 * a rule in shadow mode never denies.
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
    private final ThrottledLog storeFailures = ThrottledLog.of(LOG, Level.WARNING);
    private final ThrottledLog shadowDenials = ThrottledLog.of(LOG, Level.INFO);
    private final ThrottledLog denials = ThrottledLog.of(LOG, Level.FINE);
    private final ThrottledLog refundFailures = ThrottledLog.of(LOG, Level.WARNING);

    public Limiter(BucketStore store, Duration timeout) {
        this(store, timeout, DecisionObserver.NONE);
    }

    public Limiter(BucketStore store, Duration timeout, DecisionObserver observer) {
        this.store = store;
        this.recentDenials = RecentDenials.of(store);
        this.timeoutNanos = timeout.toNanos();
        this.observer = observer;
    }

    /**
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost the rule can never grant, before anything is sent
     */
    public Decision check(RuleConfig rule, String key, long cost) {
        rule.bucket().checkCost(cost);
        long start = System.nanoTime();
        String storeKey = BucketKeys.of(rule.name(), key);
        Decision decision;
        try {
            Outcome outcome = store.acquire(storeKey, rule.bucket(), cost).toCompletableFuture().get(timeoutNanos, TimeUnit.NANOSECONDS);
            decision = decided(rule, cost, outcome);
        } catch (TimeoutException e) {
            decision = storeFailed(rule, key, storeKey, cost, null);
        } catch (ExecutionException e) {
            decision = storeFailed(rule, key, storeKey, cost, e.getCause() != null ? e.getCause() : e);
        } catch (RuntimeException e) {
            decision = storeFailed(rule, key, storeKey, cost, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            decision = storeFailed(rule, key, storeKey, cost, e);
        }
        observer.decided(rule, key, decision, System.nanoTime() - start);
        return decision;
    }

    /** Like {@link #check}, without blocking: the stage completes when the store answers or the timeout passes. */
    public CompletableFuture<Decision> checkAsync(RuleConfig rule, String key, long cost) {
        rule.bucket().checkCost(cost);
        long start = System.nanoTime();
        String storeKey = BucketKeys.of(rule.name(), key);
        // the store's outcome or failure, or TIMED_OUT: whichever comes first is the one answer decided on
        CompletableFuture<Object> answer = new CompletableFuture<>();
        try {
            store.acquire(storeKey, rule.bucket(), cost).whenComplete((outcome, failure) -> answer.complete(failure == null ? outcome : failure));
        } catch (RuntimeException e) {
            answer.complete(e);
        }
        return answer.completeOnTimeout(TIMED_OUT, timeoutNanos, TimeUnit.NANOSECONDS).thenApply(first -> {
            Decision decision = first instanceof Outcome outcome ? decided(rule, cost, outcome)
                    : storeFailed(rule, key, storeKey, cost, first == TIMED_OUT ? null : (Throwable) first);
            observer.decided(rule, key, decision, System.nanoTime() - start);
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
     * @throws IllegalArgumentException for tokens outside 1 to the rule's smallest burst, before anything is sent
     */
    public Decision refund(RuleConfig rule, String key, long tokens) {
        if (tokens < 1 || tokens > rule.bucket().maxCost()) {
            throw new IllegalArgumentException("tokens = " + tokens + ": must be between 1 and " + rule.bucket().maxCost()
                    + ", the smallest burst of rule '" + rule.name() + "'");
        }
        String storeKey = BucketKeys.of(rule.name(), key);
        Throwable failure;
        try {
            Outcome outcome = store.refund(storeKey, rule.bucket(), tokens).toCompletableFuture().get(timeoutNanos, TimeUnit.NANOSECONDS);
            observer.refunded(rule, key, tokens, false);
            return Decisions.of(rule.name(), rule.bucket(), tokens, outcome);
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

    private Decision decided(RuleConfig rule, long cost, Outcome outcome) {
        Decision decision = Decisions.of(rule.name(), rule.bucket(), cost, outcome);
        if (decision.allowed()) {
            return decision;
        }
        if (rule.mode() == Mode.SHADOW) {
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

    /**
     * The answer without the store: the rule's {@code on-store-failure} policy. A key this member saw
     * denied moments ago is denied even under {@code allow}: it is hot, and a store slow under that
     * load is no reason to let its flood through.
     */
    private Decision storeFailed(RuleConfig rule, String key, String storeKey, long cost, Throwable cause) {
        boolean hot = recentDenials.recentlyDenied(storeKey, cost);
        boolean allow = rule.onStoreFailure() == StoreFailurePolicy.ALLOW && !hot;
        if (storeFailures.due()) {
            String what = cause == null ? "did not answer within " + Duration.ofNanos(timeoutNanos).toMillis() + " ms"
                    : cause instanceof InterruptedException ? "was interrupted" : "failed";
            storeFailures.write("Rate-limit store " + what + " for rule '" + rule.name() + "'; " + (allow ? "allowing" : "denying")
                    + " the request (on-store-failure=" + rule.onStoreFailure().name().toLowerCase(java.util.Locale.ROOT)
                    + (hot ? ", and the key was denied moments ago" : "") + ")", cause);
        }
        Decision decision = Decisions.storeUnavailable(rule.name(), allow, cost, rule.bucket().burst(0), STORE_FAILURE_RETRY_MICROS);
        Decision answer = rule.mode() == Mode.SHADOW ? Decisions.shadow(decision) : decision;
        observer.storeFailed(rule, key, cause == null, answer);
        return answer;
    }
}

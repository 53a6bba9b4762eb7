package io.tollgate;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Programmatic access to the configured rules; inject it with {@code @Inject RateLimiter}.
 *
 * <pre>{@code
 * Decision d = rateLimiter.tryAcquire("llm", tenantId, promptTokens);
 * if (!d.allowed()) {
 *     throw new RateLimitExceededException(d);
 * }
 * }</pre>
 *
 * A rule in shadow mode always answers {@code allowed}, with {@link Decision#shadowDenied()} set
 * where it would have denied. A store failure is answered by the rule's {@code on-store-failure}
 * policy, with {@link Decision#storeUnavailable()} set.
 *
 * <p>With {@code tollgate.enabled=false} every check still refuses an unknown rule or a bad cost, and otherwise answers
 * at once: allowed, the cost as asked, nothing charged, {@code remaining} and {@code burst} the burst of the rule's
 * first limit (for the key), every time 0 and no flag set; {@link #refund} takes nothing and returns {@code true}.
 */
public interface RateLimiter {

    /**
     * Takes {@code cost} tokens from the bucket {@code key} of {@code rule}, if they are there.
     * Blocks at most the configured store timeout.
     *
     * @param rule a configured rule name
     * @param key  the bucket within the rule, any string (long keys are hashed)
     * @param cost tokens to take, from 0 (only look) to the rule's smallest burst
     * @return the decision
     * @throws IllegalArgumentException for an unknown rule, or a cost outside that range; no
     *         tokens are taken
     */
    Decision tryAcquire(String rule, String key, long cost);

    /** {@link #tryAcquire(String, String, long)} with a cost of 1. */
    default Decision tryAcquire(String rule, String key) {
        return tryAcquire(rule, key, 1);
    }

    /**
     * Takes {@code cost} tokens from the bucket {@code key} of {@code rule}, waiting for them up to {@code maxWait}: for
     * throttling the application's own outbound calls to a partner's API, a batch job's writes. While denied it sleeps
     * the decision's retry-after and asks again; when that retry-after already ends past what is left of
     * {@code maxWait}, it returns the denial at once instead of sleeping in vain. A denial charges nothing, so a caller
     * that waits or gives up has taken nothing.
     *
     * <pre>{@code
     * Decision d = rateLimiter.acquire("partner-api", "orders", 1, Duration.ofSeconds(5));
     * if (!d.allowed()) {
     *     throw new RateLimitExceededException(d); // not within 5 s: the partner's budget is spent
     * }
     * partner.send(order);
     * }</pre>
     *
     * A shadow rule answers at once ({@code allowed}). A store failure is answered at once by the rule's
     * {@code on-store-failure} policy ({@link Decision#storeUnavailable()} set), as is a banned key (whose retry-after
     * is the ban's time left, waited only if it ends within {@code maxWait}). Each attempt blocks at most the configured
     * store timeout, which the wait may exceed {@code maxWait} by.
     *
     * @param rule    a configured rule name
     * @param key     the bucket within the rule, any string (long keys are hashed)
     * @param cost    tokens to take, from 0 (only look) to the rule's smallest burst
     * @param maxWait the longest to wait, zero or more ({@link Duration#ZERO}: one attempt, as
     *                {@link #tryAcquire(String, String, long)})
     * @return the decision that allowed the call, or the last denial (or the failure policy's answer)
     * @throws IllegalArgumentException for an unknown rule, a cost outside that range, a {@code null} or negative
     *         {@code maxWait}; nothing is taken
     * @throws InterruptedException     if the thread is interrupted on entry or while waiting; nothing is taken
     */
    Decision acquire(String rule, String key, long cost, Duration maxWait) throws InterruptedException;

    /**
     * Like {@link #tryAcquire(String, String, long)}, without blocking the caller: the stage
     * completes when the store answers (or the timeout's failure policy applies). Dependent stages
     * should use the {@code *Async} variants with an executor of the application's choice.
     *
     * @throws IllegalArgumentException for an unknown rule or a bad cost, before anything is sent
     */
    CompletionStage<Decision> tryAcquireAsync(String rule, String key, long cost);

    /**
     * Gives {@code tokens} back to the bucket {@code key} of {@code rule}, each of its limits capped at its burst:
     * for a call that was charged and, by how it ended, does not owe them (the programmatic form of a rule's
     * {@code refund-on}). A missing or expired bucket is full and stays so. Blocks at most the configured store
     * timeout.
     *
     * <pre>{@code
     * Decision d = rateLimiter.tryAcquire("llm", tenantId, promptTokens);
     * if (!d.allowed()) {
     *     throw new RateLimitExceededException(d);
     * }
     * boolean answered = llm.complete(prompt);
     * if (!answered) {
     *     rateLimiter.refund("llm", tenantId, promptTokens); // the model failed: the tenant pays nothing
     * }
     * }</pre>
     *
     * Best effort: when the store fails or does not answer in time, the failure is logged (at most one line per
     * 10 s) and counted, the tokens stay charged, and this returns {@code false}; it never throws for that.
     *
     * @param rule   a configured rule name
     * @param key    the bucket within the rule, as given to {@link #tryAcquire(String, String, long)}
     * @param tokens tokens to give back, from 1 to the rule's smallest burst
     * @return whether the store took the refund
     * @throws IllegalArgumentException for an unknown rule, or tokens outside that range; nothing is changed
     */
    boolean refund(String rule, String key, long tokens);
}

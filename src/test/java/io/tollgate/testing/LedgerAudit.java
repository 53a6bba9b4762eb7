package io.tollgate.testing;

import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.store.BucketStore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Compares what buckets hold with what was granted from them: for keys {@code prefix + i} of a rule
 * that does not refill during the run, each must hold its burst minus its grants. More means a
 * bucket lost its state; less, that a decision was charged whose answer its caller never saw.
 *
 * @param exact          buckets holding exactly what was not granted
 * @param lost           tokens that came back (a bucket lost its state)
 * @param chargedUnseen  tokens charged for answers that came after the caller gave up
 * @param granted        tokens granted over all the keys
 */
public record LedgerAudit(int exact, long lost, long chargedUnseen, long granted) {

    /** Reads each bucket with a cost-0 request (nothing is charged). */
    public static LedgerAudit of(BucketStore store, RuleConfig rule, String prefix, AtomicLongArray granted, long burst)
            throws Exception {
        int exact = 0;
        long lost = 0;
        long chargedUnseen = 0;
        long total = 0;
        for (int i = 0; i < granted.length(); i++) {
            long expected = burst - granted.get(i);
            total += granted.get(i);
            long remaining = store.acquire(BucketKeys.of(rule.name(), prefix + i), rule.bucket(), 0)
                    .toCompletableFuture().get(60, TimeUnit.SECONDS).remaining();
            if (remaining == expected) {
                exact++;
            } else if (remaining > expected) {
                lost += remaining - expected;
            } else {
                chargedUnseen += expected - remaining;
            }
        }
        return new LedgerAudit(exact, lost, chargedUnseen, total);
    }
}

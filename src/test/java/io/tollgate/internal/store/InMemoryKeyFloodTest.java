package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Fuzz;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A flood of distinct keys against the in-memory store ({@code tollgate.memory.max-entries}): the
 * store never holds more than its bound, and clients that keep coming back keep their buckets, so
 * a flood buys them no tokens. A client away for longer than the bound can cover loses its bucket,
 * which then restarts full, and no more than that. The clock stands still: nothing refills and
 * nothing expires, so only the bound removes buckets, and every token can be counted.
 */
class InMemoryKeyFloodTest {

    private static final int BOUND = 10_000;
    private static final int FLOOD_KEYS = 1_000_000;
    private static final int ACTIVE_CLIENTS = 20;
    /** Each active client comes back once per this many new keys: a tenth of the bound. */
    private static final int ACTIVE_EVERY = BOUND / 10;
    private static final long ACTIVE_BURST = 50;
    /** A client that comes back once per three times the bound of new keys: more than the store can keep. */
    private static final int RARE_EVERY = 3 * BOUND;

    @Test
    void aFloodOfNewKeysStaysWithinTheBoundAndActiveClientsKeepTheirBuckets() {
        Random r = Fuzz.random("in-memory-flood");
        TestClock clock = TestClock.atRealTime();
        InMemoryBucketStore store = new InMemoryBucketStore(clock, BOUND);
        TokenBucket flood = TokenBucket.of(Limit.of(5, 1, Duration.ofHours(1)));
        TokenBucket active = TokenBucket.of(Limit.of(ACTIVE_BURST, 1, Duration.ofHours(1)));
        long[] allowed = new long[ACTIVE_CLIENTS];
        long[] denied = new long[ACTIVE_CLIENTS];
        String[] activeKeys = new String[ACTIVE_CLIENTS];
        for (int c = 0; c < ACTIVE_CLIENTS; c++) {
            activeKeys[c] = BucketKeys.of("api", "client-" + c + "-" + r.nextInt());
        }
        String rareKey = BucketKeys.of("api", "rare-" + r.nextInt());
        long rareAllowed = 0;
        long rareRequests = 0;
        long rareRestarts = 0;
        int maxSize = 0;
        long started = System.nanoTime();
        for (int i = 0; i < FLOOD_KEYS; i++) {
            store.acquireNow(BucketKeys.of("api", "flood-" + Long.toHexString(r.nextLong())), flood, 1 + r.nextInt(5));
            if (i % (ACTIVE_EVERY / ACTIVE_CLIENTS) == 0) {
                int c = (i / (ACTIVE_EVERY / ACTIVE_CLIENTS)) % ACTIVE_CLIENTS;
                Outcome outcome = store.acquireNow(activeKeys[c], active, 1);
                if (outcome.allowed()) {
                    allowed[c]++;
                    assertThat(outcome.remaining()).as("client %d after %d requests", c, allowed[c] + denied[c])
                            .isEqualTo(ACTIVE_BURST - allowed[c]);
                } else {
                    denied[c]++;
                    assertThat(outcome.remaining()).isZero();
                }
            }
            if (i % RARE_EVERY == RARE_EVERY / 2) {
                Outcome outcome = store.acquireNow(rareKey, active, 1);
                rareRequests++;
                assertThat(outcome.allowed()).isTrue();
                if (outcome.remaining() != ACTIVE_BURST - 1 - rareAllowed) {
                    // evicted: the bucket restarted full, and nothing else
                    assertThat(outcome.remaining()).isEqualTo(ACTIVE_BURST - 1);
                    rareRestarts++;
                    rareAllowed = 0;
                }
                rareAllowed++;
            }
            maxSize = Math.max(maxSize, store.size());
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf("in-memory flood: %d new keys against a bound of %d: at most %d entries held, %d at the end; "
                + "%d active clients, each back every %d new keys, %d requests each, %d allowed each (their burst), "
                + "none reset to full; a client back once per %d new keys: %d requests, %d of them found a full bucket again; "
                + "%d ms%n", FLOOD_KEYS, BOUND, maxSize, store.size(), ACTIVE_CLIENTS, ACTIVE_EVERY,
                allowed[0] + denied[0], allowed[0], RARE_EVERY, rareRequests, rareRestarts, millis);
        assertThat(maxSize).isLessThanOrEqualTo(BOUND);
        assertThat(rareRestarts).as("the trade-off of a bound: a bucket evicted restarts full").isPositive();
        for (int c = 0; c < ACTIVE_CLIENTS; c++) {
            assertThat(allowed[c]).as("tokens granted to active client %d over the flood%s", c, Fuzz.replay()).isEqualTo(ACTIVE_BURST);
        }
    }
}

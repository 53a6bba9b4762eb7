package io.tollgate.it;

import static io.tollgate.it.Http.header;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;

/** Waits until two instances of an application with the suite's rules decide on one set of buckets. */
final class SharedBuckets {

    private SharedBuckets() {
    }

    /**
     * Waits (at most {@code timeoutNanos}) until a tenant's only report token, taken on {@code a}, is gone on
     * {@code b} (the rule {@code reports} with a burst of 1). Two probes in a row, on different keys (so
     * different partitions and owners).
     */
    static void await(URL a, URL b, long timeoutNanos) throws InterruptedException {
        long start = System.nanoTime();
        int shared = 0;
        String last = "";
        for (int probe = 0; shared < 2; probe++) {
            if (System.nanoTime() - start > timeoutNanos) {
                fail("the two instances do not share buckets after " + timeoutNanos / 1_000_000_000 + " s: " + last);
            }
            String tenant = "probe-" + probe + "-" + UUID.randomUUID();
            HttpResponse<String> onA = Http.get(a, "api/reports/" + tenant);
            if (onA.statusCode() != 200 && onA.statusCode() != 429) {
                fail("the application does not serve: " + Http.describe(onA));
            }
            HttpResponse<String> onB = Http.get(b, "api/reports/" + tenant);
            last = "GET " + onA.uri().getPath() + " on " + a + ": " + onA.statusCode() + " " + onA.headers().map()
                    + ", then on " + b + ": " + onB.statusCode() + " " + onB.headers().map() + " " + onB.body()
                    + (onB.statusCode() == 200 && header(onB, "RateLimit") == null
                            ? " (no rate-limit headers: decided without the store, on-store-failure=allow)" : "");
            if (onA.statusCode() == 200 && onB.statusCode() == 429) {
                shared++;
            } else {
                shared = 0;
                Thread.sleep(500);
            }
        }
        System.out.println("[it] " + Deployments.SERVER + ": " + a + " and " + b + " share buckets after "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
}

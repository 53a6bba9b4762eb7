package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances of the same server with the same WAR share one limit. Payara Micro: two processes in one
 * Payara Data Grid, Tollgate on Payara's own Hazelcast. Open Liberty: two servers, each with Tollgate's
 * embedded Hazelcast member (bundled in the WAR), the two members joined over 127.0.0.1.
 *
 * <p>16 client threads, half on each instance, hammer one key of the rule {@code search} (rate 5/s, burst 10)
 * for a few seconds; the number of 200s is bounded by the token bucket over the time the test saw.
 */
@ExtendWith(ArquillianExtension.class)
class ClusterIT {

    private static final long RATE = 5;
    private static final long BURST = 10;
    private static final int THREADS = 16;
    private static final long HAMMER_NANOS = TimeUnit.SECONDS.toNanos(4);
    private static final int MAX_REQUESTS = 100_000;
    private static final long FORMATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The suite's rules, with {@code search} at 5/s burst 10 and {@code reports} (the probe) at one per hour. */
    private static WebArchive war() {
        return Deployments.war("cluster", Deployments.contractConfig(Map.of(
                "tollgate.rules.search.rate", Long.toString(RATE),
                "tollgate.rules.search.burst", Long.toString(BURST),
                "tollgate.rules.reports.burst", "1",
                "tollgate.store.timeout", "5s")));
    }

    @Deployment(name = "a", order = 1, testable = false)
    @TargetsContainer("node-a")
    static WebArchive a() {
        return war();
    }

    @Deployment(name = "b", order = 2, testable = false)
    @TargetsContainer("node-b")
    static WebArchive b() {
        return war();
    }

    @ArquillianResource
    @OperateOnDeployment("a")
    URL a;

    @ArquillianResource
    @OperateOnDeployment("b")
    URL b;

    @Test
    void twoInstancesShareOneLimit() throws Exception {
        System.out.println("[it] " + Deployments.SERVER + " cluster: node-a " + a + ", node-b " + b);
        SharedBuckets.await(a, b, FORMATION_TIMEOUT_NANOS);

        String key = "hammer-" + UUID.randomUUID();
        URL[] nodes = {a, b};
        AtomicInteger requests = new AtomicInteger();
        AtomicInteger[] allowed = {new AtomicInteger(), new AtomicInteger()};
        AtomicInteger denied = new AtomicInteger();
        AtomicInteger withoutHeaders = new AtomicInteger(); // 200s decided without the store (fail-open)
        List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong firstSent = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastSent = new AtomicLong(Long.MIN_VALUE);
        AtomicLong firstAnswered = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastAnswered = new AtomicLong(Long.MIN_VALUE);

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long start = System.nanoTime();
        long deadline = start + HAMMER_NANOS;
        List<Future<?>> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int node = t % 2;
            threads.add(pool.submit(() -> {
                while (System.nanoTime() < deadline && requests.incrementAndGet() <= MAX_REQUESTS) {
                    long sent = System.nanoTime();
                    HttpResponse<String> response = Http.get(nodes[node], "api/search?q=load", "X-Api-Key", key);
                    long answered = System.nanoTime();
                    firstSent.accumulateAndGet(sent, Math::min);
                    lastSent.accumulateAndGet(sent, Math::max);
                    firstAnswered.accumulateAndGet(answered, Math::min);
                    lastAnswered.accumulateAndGet(answered, Math::max);
                    if (response.statusCode() == 200) {
                        allowed[node].incrementAndGet();
                        if (header(response, "RateLimit") == null) {
                            withoutHeaders.incrementAndGet();
                        }
                    } else if (response.statusCode() == 429) {
                        denied.incrementAndGet();
                    } else if (unexpected.size() < 10) {
                        unexpected.add(describe(response));
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        for (Future<?> thread : threads) {
            thread.get(60, TimeUnit.SECONDS);
        }

        int total = allowed[0].get() + allowed[1].get();
        double elapsed = (lastAnswered.get() - firstSent.get()) / 1e9;
        double inner = (lastSent.get() - firstAnswered.get()) / 1e9;
        long most = (long) Math.floor(BURST + RATE * elapsed);
        long least = (long) Math.floor(BURST + RATE * inner) - 3;
        System.out.printf("[it] %s cluster: allowed %d/%d expected at most (burst %d + %d/s x %.3f s), at least %d "
                        + "(%.3f s) - node-a %d, node-b %d; %d denied, %d requests, %d allowed without the store%n",
                Deployments.SERVER, total, most, BURST, RATE, elapsed, least, inner, allowed[0].get(), allowed[1].get(),
                denied.get(), Math.min(requests.get(), MAX_REQUESTS), withoutHeaders.get());

        assertTrue(unexpected.isEmpty(), "unexpected answers: " + unexpected);
        assertEquals(0, withoutHeaders.get(), "200s decided without the store (fail-open)");
        assertTrue(total <= most, "over-grant: " + total + " allowed, at most " + most);
        assertTrue(total >= least, "under-grant: " + total + " allowed, at least " + least);
        assertTrue(allowed[0].get() > 0, "node-a served no 200");
        assertTrue(allowed[1].get() > 0, "node-b served no 200");
    }
}

package io.tollgate.integration;

import static io.tollgate.testing.Http.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.RateLimitExceededException;
import io.tollgate.RateLimiter;
import io.tollgate.app.ExportService;
import io.tollgate.app.OutcomesResource;
import io.tollgate.app.UpstreamDown;
import io.tollgate.app.UpstreamDownMapper;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Charging by outcome on the in-JVM stack with the Hazelcast store of a 3-member cluster (most keys owned by
 * another member): {@code charge-on} keeps only the charges of matching outcomes, {@code refund-on} gives back those
 * of matching ones, whichever way a JAX-RS resource or a CDI method ends, and the application's own refunds.
 * Every request is still decided before it runs: refunds come after, to the same bucket, capped at its burst.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class OutcomeChargingTest {

    private HazelcastTestCluster cluster;
    private final String map = "outcomes-" + UUID.randomUUID();
    /** The application on the other members: each advertises that its Tollgate reads refunds. */
    private List<HazelcastBucketStore> elsewhere;

    @BeforeEach
    void theApplicationRunsOnEveryMember(HazelcastTestCluster shared) {
        cluster = shared;
        cluster.clock().set(2_700_000_000L * 1_000_000); // stopped: nothing refills while a test counts
        elsewhere = List.of(new HazelcastBucketStore(cluster.member(1), map, true), new HazelcastBucketStore(cluster.member(2), map, true));
    }

    @AfterEach
    void stop() {
        elsewhere.forEach(HazelcastBucketStore::close);
    }

    private TestApp start() throws Exception {
        TestApp app = TestApp.builder().resources(OutcomesResource.class, UpstreamDownMapper.class).beans(ExportService.class)
                .hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", map)
                .property("tollgate.rules.login.rate", "1/1h")
                .property("tollgate.rules.login.burst", "3")
                .property("tollgate.rules.login.key", "header:X-User")
                .property("tollgate.rules.login.charge-on", "status:401")
                .property("tollgate.rules.flaky.rate", "1/1h")
                .property("tollgate.rules.flaky.burst", "2")
                .property("tollgate.rules.flaky.key", "header:X-Client")
                .property("tollgate.rules.flaky.refund-on", "status:5xx")
                .property("tollgate.rules.by-path.rate", "1/1h")
                .property("tollgate.rules.by-path.burst", "2")
                .property("tollgate.rules.by-path.key", "header:X-Client")
                .property("tollgate.rules.by-path.paths", "/outcomes/paths/*")
                .property("tollgate.rules.by-path.refund-on", "status:500, status:503")
                .property("tollgate.rules.export.rate", "1/1h")
                .property("tollgate.rules.export.burst", "2")
                .property("tollgate.rules.export.refund-on", "exception:io.tollgate.app.UpstreamDown")
                .start();
        awaitRefunds(app.bean(RateLimiter.class));
        return app;
    }

    /** Refunds are sent once every member's Tollgate advertised that it reads them: a refund to a missing bucket, which changes nothing, tells. */
    private static void awaitRefunds(RateLimiter limiter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!limiter.refund("login", "nobody-" + UUID.randomUUID(), 1)) {
            assertThat(System.nanoTime()).as("the cluster takes refunds within 30 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /**
     * A request that ended in an exception no mapper takes is settled as its request ends, which can be just after
     * its client has the server's 500: waits until the bucket reads {@code tokens} (a cost of 0 only looks).
     */
    private static void awaitRemaining(TestApp app, String rule, String key, long tokens) throws InterruptedException {
        RateLimiter limiter = app.bean(RateLimiter.class);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (limiter.tryAcquire(rule, key, 0).remaining() != tokens) {
            assertThat(System.nanoTime()).as("%s reads %d tokens for %s within 10 s", rule, tokens, key).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void onlyFailedLoginsCountAndTheyCountExactly() throws Exception {
        String user = "user-" + UUID.randomUUID();
        try (TestApp app = start()) {
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> ok = app.post("outcomes/login", "X-User", user, "X-Password", "secret");
                assertThat(ok.statusCode()).as("successful login %d", i + 1).isEqualTo(200);
                assertThat(remaining(ok)).as("a 200 is given back before the headers are written").isEqualTo(3);
            }
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> failed = app.post("outcomes/login", "X-User", user, "X-Password", "guess-" + i);
                assertThat(failed.statusCode()).isEqualTo(401);
                assertThat(remaining(failed)).isEqualTo(2 - i);
            }
            assertThat(app.post("outcomes/login", "X-User", user, "X-Password", "guess").statusCode())
                    .as("the fourth failure within the burst of 3").isEqualTo(429);
            assertThat(app.post("outcomes/login", "X-User", user, "X-Password", "secret").statusCode())
                    .as("decided before it runs: the right password too, once the failures emptied the bucket").isEqualTo(429);
            assertThat(app.post("outcomes/login", "X-User", "someone-else", "X-Password", "secret").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void serverErrorsCostNothingWhicheverWayTheResourceFails() throws Exception {
        String client = "client-" + UUID.randomUUID();
        try (TestApp app = start()) {
            for (String fail : List.of("500", "503", "mapped", "unmapped")) {
                for (int i = 0; i < 3; i++) {
                    HttpResponse<String> failed = app.get("outcomes/flaky?fail=" + fail, "X-Client", client);
                    assertThat(failed.statusCode()).as("fail=%s", fail).isEqualTo(fail.equals("mapped") ? 502 : fail.equals("503") ? 503 : 500);
                    if (fail.equals("unmapped")) { // answered by the servlet container, past JAX-RS's response filters
                        awaitRemaining(app, "flaky", client, 2);
                    } else {
                        assertThat(remaining(failed)).as("fail=%s: given back before the headers", fail).isEqualTo(2);
                    }
                }
            }
            HttpResponse<String> notFound = app.get("outcomes/flaky?fail=404", "X-Client", client);
            assertThat(notFound.statusCode()).isEqualTo(404);
            assertThat(remaining(notFound)).as("a 4xx is the client's: it costs").isEqualTo(1);
            HttpResponse<String> fine = app.get("outcomes/flaky", "X-Client", client);
            assertThat(fine.statusCode()).isEqualTo(200);
            assertThat(remaining(fine)).as("a 200 costs").isZero();
            assertThat(app.get("outcomes/flaky", "X-Client", client).statusCode()).isEqualTo(429);
        }
    }

    @Test
    void aPathRuleIsRefundedByTheStatusesItNames() throws Exception {
        String client = "client-" + UUID.randomUUID();
        try (TestApp app = start()) {
            for (int i = 0; i < 4; i++) {
                assertThat(app.get("outcomes/paths/a?fail=500", "X-Client", client).statusCode()).isEqualTo(500);
                assertThat(app.get("outcomes/paths/b?fail=unmapped", "X-Client", client).statusCode()).isEqualTo(500);
                awaitRemaining(app, "by-path", client, 2);
            }
            assertThat(app.get("outcomes/paths/c?fail=mapped", "X-Client", client).statusCode()).as("502: not named, it costs").isEqualTo(502);
            assertThat(app.get("outcomes/paths/d", "X-Client", client).statusCode()).isEqualTo(200);
            assertThat(app.get("outcomes/paths/e", "X-Client", client).statusCode()).isEqualTo(429);
        }
    }

    @Test
    void aCdiMethodIsRefundedWhenItThrowsTheNamedException() throws Exception {
        String tenant = "tenant-" + UUID.randomUUID();
        try (TestApp app = start()) {
            ExportService exports = app.bean(ExportService.class);
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> exports.export(tenant, "upstream-down")).isInstanceOf(UpstreamDown.class);
            }
            assertThatThrownBy(() -> exports.export(tenant, "bad-request")).as("another exception: charged")
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(exports.export(tenant, "ok")).isEqualTo("export for " + tenant);
            assertThatThrownBy(() -> exports.export(tenant, "ok")).isInstanceOf(RateLimitExceededException.class);
            assertThatThrownBy(() -> exports.export(tenant, "upstream-down")).as("denied before it runs")
                    .isInstanceOf(RateLimitExceededException.class);
        }
    }

    @Test
    void theApplicationRefundsCappedAtTheBurstAndBadArgumentsChangeNothing() throws Exception {
        String tenant = "tenant-" + UUID.randomUUID();
        try (TestApp app = start()) {
            RateLimiter limiter = app.bean(RateLimiter.class);
            assertThat(limiter.tryAcquire("export", tenant, 2).remaining()).isZero();
            assertThat(limiter.refund("export", tenant, 1)).isTrue();
            assertThat(limiter.tryAcquire("export", tenant, 0).remaining()).isEqualTo(1);
            assertThatThrownBy(() -> limiter.refund("no-such-rule", tenant, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("rule = 'no-such-rule': no such rule");
            assertThatThrownBy(() -> limiter.refund("export", tenant, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("tokens = 0: must be between 1 and 2, the smallest burst of rule 'export'");
            assertThatThrownBy(() -> limiter.refund("export", tenant, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> limiter.refund("export", tenant, -1)).isInstanceOf(IllegalArgumentException.class);
            assertThat(limiter.tryAcquire("export", tenant, 0).remaining()).as("refused refunds changed nothing").isEqualTo(1);
            assertThat(limiter.refund("export", tenant, 2)).isTrue();
            assertThat(limiter.tryAcquire("export", tenant, 0).remaining()).as("capped at the burst").isEqualTo(2);
            assertThat(limiter.tryAcquire("export", tenant, 2).allowed()).isTrue();
            assertThat(limiter.tryAcquire("export", tenant, 1).allowed()).isFalse();
        }
    }
}

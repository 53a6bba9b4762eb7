package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.tollgate.Decision;
import io.tollgate.RateLimitRules;
import io.tollgate.RateLimitStoreFailed;
import io.tollgate.RateLimitStoreFailed.Cause;
import io.tollgate.RateLimiter;
import io.tollgate.app.ItemsResource;
import io.tollgate.app.RecordedEvents;
import io.tollgate.app.SearchResource;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * With the store gone, each rule answers by its {@code on-store-failure} policy: fail open lets
 * requests through uncharged, fail closed denies them with Retry-After 1.
 */
@Tag("hazelcast")
@Isolated // a client reconnecting to a restarted cluster, and store timeouts: nothing beside it
class StoreFailureTest {

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class, ItemsResource.class)
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "1")
                .property("tollgate.rules.search.on-store-failure", "allow")
                .property("tollgate.rules.search.key", "header:X-Client")
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.upload.burst", "1")
                .property("tollgate.rules.upload.on-store-failure", "deny")
                .property("tollgate.rules.upload.key", "header:X-Client");
        // the application's generous store timeout: a store that is gone fails at once, and one that is up
        // must answer in time on a busy machine; only the test of the timeout itself sets a short one
    }

    private static void assertFailureBehaviour(TestApp app) throws Exception {
        for (int i = 0; i < 3; i++) {
            // clients the store has not denied yet (a recent denial is still answered by the denial cache)
            HttpResponse<String> open = app.get("search?q=" + i, "X-Client", "after-" + i);
            assertThat(open.statusCode()).as("fail open").isEqualTo(200);
            assertThat(header(open, "RateLimit")).isNull();

            HttpResponse<String> closed = app.post("items", "X-Client", "after-" + i);
            assertThat(closed.statusCode()).as("fail closed").isEqualTo(429);
            // one second, plus the same per-client jitter as any denial: clients do not return in one herd
            assertThat(header(closed, "Retry-After")).isIn("1", "2");
            assertThat(json(closed).getString("detail")).isEqualTo("Rate limit rule 'upload' could not be checked and denies requests until it can.");
        }
        RateLimiter limiter = app.bean(RateLimiter.class);
        Decision decision = limiter.tryAcquire("search", "k");
        assertThat(decision.allowed()).isTrue();
        assertThat(decision.storeUnavailable()).isTrue();
        Decision async = limiter.tryAcquireAsync("upload", "k", 1).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(async.allowed()).isFalse();
        assertThat(async.storeUnavailable()).isTrue();
    }

    /**
     * The application's observers are told of each failure as an error (not a timeout), with the policy's answer;
     * a client still denied from before the store went is answered by the denial cache, which is no failure.
     */
    @Test
    void aMemberThatIsGoneFailsOpenOrClosedAsConfigured() throws Exception {
        HazelcastTestCluster cluster = HazelcastTestCluster.start(1);
        try (TestApp app = app().beans(RecordedEvents.class).hazelcast(cluster.member(0)).start()) {
            assertThat(app.get("search?q=before", "X-Client", "before").statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=before", "X-Client", "before").statusCode()).isEqualTo(429);
            // that denial is remembered on this member: the same client stays denied while the store is gone
            cluster.close();
            assertThat(app.get("search?q=gone", "X-Client", "before").statusCode()).isEqualTo(429);
            assertFailureBehaviour(app);
            assertThat(app.bean(RecordedEvents.class).storeFailures()).extracting(RateLimitStoreFailed::rule,
                    RateLimitStoreFailed::keyHash, RateLimitStoreFailed::cause, failure -> failure.decision().allowed())
                    .containsExactly(
                            tuple("search", BucketKeys.hash("after-0"), Cause.ERROR, true),
                            tuple("upload", BucketKeys.hash("after-0"), Cause.ERROR, false),
                            tuple("search", BucketKeys.hash("after-1"), Cause.ERROR, true),
                            tuple("upload", BucketKeys.hash("after-1"), Cause.ERROR, false),
                            tuple("search", BucketKeys.hash("after-2"), Cause.ERROR, true),
                            tuple("upload", BucketKeys.hash("after-2"), Cause.ERROR, false),
                            tuple("search", BucketKeys.hash("k"), Cause.ERROR, true),
                            tuple("upload", BucketKeys.hash("k"), Cause.ERROR, false));
        } finally {
            cluster.close();
        }
    }

    /**
     * A partition thread held busy: the request's decision cannot run. The request is answered by
     * the policy once the timeout passes, while the store is still stuck, never held until it frees;
     * the application's observers are told of each timeout and of the policy's denial.
     */
    @Test
    void aStoreThatDoesNotAnswerInTimeIsAnsweredByThePolicyWhileStillStuck() throws Exception {
        HazelcastTestCluster cluster = HazelcastTestCluster.start(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TestApp app = app().beans(RecordedEvents.class).hazelcast(cluster.member(0))
                .property("tollgate.store.timeout", "1s").start()) {
            IMap<String, long[]> map = cluster.member(0).getMap("tollgate-buckets");
            // every decision of this one-member cluster waits behind a processor on its partition thread
            int partitions = cluster.member(0).getPartitionService().getPartitions().size();
            List<CompletionStage<Object>> blockers = new ArrayList<>();
            for (int partition = 0; partition < partitions; partition++) {
                String key = keyOfPartition(cluster, partition);
                blockers.add(map.submitToKey(key, new Blocker(release)));
            }
            HttpResponse<String> open = app.get("search?q=stuck", "X-Client", "stuck");
            HttpResponse<String> closed = app.post("items", "X-Client", "stuck");
            Decision async = app.bean(RateLimiter.class).tryAcquireAsync("search", "k", 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(release.getCount()).as("the store is still stuck").isEqualTo(1);
            assertThat(open.statusCode()).isEqualTo(200);
            assertThat(closed.statusCode()).isEqualTo(429);
            assertThat(async.storeUnavailable()).isTrue();
            assertObserversToldOfTheTimeouts(app.bean(RecordedEvents.class));
            release.countDown();
            for (CompletionStage<Object> blocker : blockers) {
                blocker.toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
            // and once it answers again, so does Tollgate
            assertThat(app.get("search?q=unstuck", "X-Client", "stuck").statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=unstuck", "X-Client", "stuck").statusCode()).isEqualTo(429);
        } finally {
            release.countDown();
            cluster.close();
        }
    }

    private static void assertObserversToldOfTheTimeouts(RecordedEvents events) {
        assertThat(events.storeFailures()).extracting(RateLimitStoreFailed::rule, RateLimitStoreFailed::keyHash,
                RateLimitStoreFailed::cause, failure -> failure.decision().allowed()).containsExactly(
                tuple("search", BucketKeys.hash("stuck"), Cause.TIMEOUT, true),
                tuple("upload", BucketKeys.hash("stuck"), Cause.TIMEOUT, false),
                tuple("search", BucketKeys.hash("k"), Cause.TIMEOUT, true));
        assertThat(events.storeFailures()).allMatch(failure -> failure.decision().storeUnavailable());
        // the one 429 among them is a denial too, as the policy made it
        assertThat(events.denials()).singleElement().satisfies(denial -> {
            assertThat(denial.rule()).isEqualTo("upload");
            assertThat(denial.decision().storeUnavailable()).isTrue();
            assertThat(denial.decision().retryAfterSeconds()).isEqualTo(1);
        });
    }

    private static String keyOfPartition(HazelcastTestCluster cluster, int partition) {
        for (int i = 0; ; i++) {
            String key = "blocker-" + i;
            if (cluster.member(0).getPartitionService().getPartition(key).getPartitionId() == partition) {
                return key;
            }
        }
    }

    /** Holds its partition thread until released (at most 60 s). */
    static final class Blocker implements EntryProcessor<String, long[], Object> {
        private static final long serialVersionUID = 1L;
        private final transient CountDownLatch release;

        Blocker(CountDownLatch release) {
            this.release = release;
        }

        @Override
        public Object process(Map.Entry<String, long[]> entry) {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }
    }

    @Test
    void aClientWhoseClusterIsDownFailsOpenOrClosedAsConfigured() throws Exception {
        HazelcastTestCluster cluster = HazelcastTestCluster.start(1);
        try (TestApp app = app().property("tollgate.hazelcast.client.addresses", String.join(",", List.of(cluster.address(0))))
                .property("tollgate.hazelcast.cluster-name", cluster.name())
                .start()) {
            assertThat(app.post("items", "X-Client", "before").statusCode()).isEqualTo(200);
            assertThat(app.post("items", "X-Client", "before").statusCode()).isEqualTo(429);
            assertThat(json(app.post("items", "X-Client", "before")).getString("detail")).startsWith("Rate limit rule 'upload' allows 1 at once");
            cluster.close();
            assertFailureBehaviour(app);
        } finally {
            cluster.close();
        }
    }

    @Test
    void aClientRecoversByItselfWhenItsClusterComesBack() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(1);
                TestApp app = app().property("tollgate.hazelcast.client.addresses", cluster.address(0))
                        .property("tollgate.hazelcast.cluster-name", cluster.name())
                        .start()) {
            assertThat(app.post("items", "X-Client", "before").statusCode()).isEqualTo(200);
            cluster.stopMembers();
            assertFailureBehaviour(app);
            cluster.startMembers(); // a restarted cluster: every bucket starts full again
            HttpResponse<String> response = null;
            int attempts = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline && (response == null || header(response, "RateLimit") == null)) {
                TimeUnit.MILLISECONDS.sleep(200);
                response = app.get("search?q=back", "X-Client", "back");
                attempts++;
            }
            System.out.printf("client recovery: the store decided again after %d requests answered by the policy%n", attempts - 1);
            assertThat(header(response, "RateLimit")).as("decided by the store again").isNotNull();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=back", "X-Client", "back").statusCode()).as("and limited again").isEqualTo(429);
            assertThat(app.post("items", "X-Client", "again").statusCode()).isEqualTo(200);
            assertThat(app.post("items", "X-Client", "again").statusCode()).isEqualTo(429);
        }
    }

    /**
     * A client whose cluster is not there at deployment deploys all the same, answers by the policies, refuses a rule
     * change (nothing to keep it in), and takes its part once the cluster comes: the shared rule changes and the bans
     * reach the cluster's maps.
     */
    @Test
    void aClientWhoseClusterIsNotThereYetDeploysAndJoinsInWhenItComes() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(1)) {
            cluster.stopMembers();
            try (TestApp app = app().property("tollgate.hazelcast.client.addresses", cluster.address(0))
                    .property("tollgate.hazelcast.cluster-name", cluster.name())
                    .property("tollgate.rules.upload.ban-after", "1/1h")
                    .property("tollgate.rules.upload.ban-for", "1h")
                    .start()) {
                assertThat(app.get("search?q=early", "X-Client", "early").statusCode()).as("fail open").isEqualTo(200);
                assertThat(app.post("items", "X-Client", "early").statusCode()).as("fail closed").isEqualTo(429);
                RateLimitRules rules = app.bean(RateLimitRules.class);
                assertThatThrownBy(() -> rules.change("search", Map.of("burst", "2"))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("out of reach");
                assertThat(rules.current("search")).containsEntry("limits", "1/1h burst 1");

                cluster.startMembers();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                boolean changed = false;
                while (!changed && System.nanoTime() < deadline) {
                    try {
                        rules.change("search", Map.of("burst", "2"));
                        changed = true;
                    } catch (IllegalStateException notYet) {
                        TimeUnit.MILLISECONDS.sleep(200);
                    }
                }
                assertThat(changed).as("a change goes through once the cluster is reached").isTrue();
                assertThat(cluster.member(0).getMap("tollgate-buckets-rules").containsKey("search")).isTrue();

                IMap<String, Long> bans = cluster.member(0).getMap("tollgate-buckets-bans");
                for (int i = 0; bans.isEmpty() && System.nanoTime() < deadline; i++) {
                    // each fresh client banned at its first denial, until one's ban reaches the cluster's map
                    String client = "late-" + i;
                    if (app.post("items", "X-Client", client).statusCode() == 200) {
                        app.post("items", "X-Client", client);
                    }
                    TimeUnit.MILLISECONDS.sleep(200);
                }
                assertThat(bans.size()).as("a ban started here is shared with the cluster").isPositive();
            }
        }
    }
}

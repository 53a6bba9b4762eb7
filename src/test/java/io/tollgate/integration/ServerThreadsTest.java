package io.tollgate.integration;

import static io.tollgate.testing.Http.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server that deploys and undeploys on long-lived threads of its own (WildFly's MSC threads) keeps nothing of
 * Hazelcast on them: the application is started on one such thread and stopped on another, as WildFly may, and
 * afterwards neither holds a member's node engine in Hazelcast's thread-local ({@code NodeEngineThreadLocalContext},
 * from Hazelcast 5.4 on), which would keep the undeployed application's class loader and every class it loaded.
 * Runs where the Hazelcast of the build has that thread-local (the newest supported one; 5.3 has none).
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class ServerThreadsTest {

    private static final String NODE_ENGINE_CONTEXT = "com.hazelcast.internal.namespace.impl.NodeEngineThreadLocalContext";

    private ExecutorService deploying;
    private ExecutorService undeploying;

    @BeforeEach
    void serverThreads() {
        deploying = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-deploying"));
        undeploying = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-undeploying"));
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        deploying.shutdown();
        undeploying.shutdown();
        assertThat(deploying.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(undeploying.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    private static TestApp.Builder search() {
        return TestApp.builder().beans(SearchResource.class)
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.ban-after", "2/1h") // the bans' listener too
                .property("tollgate.rules.search.ban-for", "10m");
    }

    @Test
    void theEmbeddedMemberLeavesNothingOnTheThreadsThatStartAndStopIt() throws Exception {
        assumeTrue(hasNodeEngineContext(), "this Hazelcast keeps no node engine in a thread-local");
        int port = HazelcastTestCluster.freePorts(1).get(0);
        startUseAndStop(search().property("tollgate.hazelcast.port", Integer.toString(port))
                .property("tollgate.hazelcast.members", "127.0.0.1:" + port)
                .property("tollgate.hazelcast.cluster-name", "tollgate-test-" + UUID.randomUUID()));
    }

    @Test
    void theApplicationsOwnMemberIsLeftOnNeitherThread(HazelcastTestCluster cluster) throws Exception {
        assumeTrue(hasNodeEngineContext(), "this Hazelcast keeps no node engine in a thread-local");
        HazelcastInstance member = cluster.member(0);
        startUseAndStop(search().hazelcast(member).property("tollgate.hazelcast.map", "server-threads-" + UUID.randomUUID()));
    }

    /** Starts the application on the deploying thread, uses it, stops it on the undeploying thread, and checks both. */
    private void startUseAndStop(TestApp.Builder application) throws Exception {
        TestApp app = on(deploying, application::start);
        try {
            assertThat(remaining(app.get("search?q=a"))).isEqualTo(1);
        } finally {
            on(undeploying, () -> {
                app.close();
                return null;
            });
        }
        assertThat(on(deploying, ServerThreadsTest::nodeEngineOnThread)).as("node engine on the deploying thread").isNull();
        assertThat(on(undeploying, ServerThreadsTest::nodeEngineOnThread)).as("node engine on the undeploying thread").isNull();
    }

    private static <T> T on(ExecutorService thread, Callable<T> work) throws Exception {
        return thread.submit(work).get(120, TimeUnit.SECONDS);
    }

    private static boolean hasNodeEngineContext() {
        try {
            Class.forName(NODE_ENGINE_CONTEXT, false, HazelcastInstance.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** @return the node engine Hazelcast declared on the calling thread, or {@code null} */
    private static Object nodeEngineOnThread() throws Exception {
        return Class.forName(NODE_ENGINE_CONTEXT, true, HazelcastInstance.class.getClassLoader())
                .getMethod("getNodeEngineThreadLocalContextOrNull").invoke(null);
    }
}

package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class SmokeTest {

    @Test
    void smoke(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(1_900_000_000_000_000L);
        try (TestApp app = TestApp.builder().beans(SearchResource.class).hazelcast(cluster.member(0))
                .property("tollgate.rules.search.rate", "1/1h").property("tollgate.rules.search.burst", "2")
                .property("tollgate.hazelcast.map", "smoke-" + System.nanoTime())
                .start()) {
            for (int i = 0; i < 3; i++) {
                var r = app.get("search?q=x");
                System.out.println(r.statusCode() + " " + r.headers().map() + " " + r.body());
            }
            assertThat(app.get("search?q=x").statusCode()).isEqualTo(429);
        }
    }
}

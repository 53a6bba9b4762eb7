package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.GeneratedApiImpl;
import io.tollgate.app.GeneratedReportsApiImpl;
import io.tollgate.app.GreetingService;
import io.tollgate.app.GreetingServlet;
import io.tollgate.app.ItemsResource;
import io.tollgate.app.KeysResource;
import io.tollgate.app.OrdersResource;
import io.tollgate.app.TenantKeys;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Requests and resources shaped the way clients send them and users write them: path rules and path keys
 * probed with matrix parameters, trailing slashes and encoded characters, a sub-resource under a path rule,
 * API interfaces as OpenAPI generators write them, and a plain servlet calling a limited service.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class RequestShapesTest {

    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster cluster) throws Exception {
        TestApp.Builder builder = TestApp.builder()
                .beans(ItemsResource.class, KeysResource.class, TenantKeys.class, OrdersResource.class, GeneratedApiImpl.class,
                        GeneratedReportsApiImpl.class, GreetingService.class)
                .servlet("/greet/*", GreetingServlet.class)
                .hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "shapes-" + UUID.randomUUID())
                .property("tollgate.trusted-proxies", "127.0.0.1")
                .properties(SampleRules.keys());
        rule(builder, "items", 1, "header:X-Api-Key").property("tollgate.rules.items.paths", "/items/*");
        rule(builder, "upload", 1, "header:X-Api-Key");
        rule(builder, "by-path", 1, "header:X-Api-Key, path");
        rule(builder, "orders", 1, "header:X-Api-Key").property("tollgate.rules.orders.paths", "/orders/**");
        rule(builder, "generated", 2, "header:X-Api-Key");
        rule(builder, "greet-by-ip", 1, "ip");
        rule(builder, "greet-gold", 1, "header:X-Api-Key").property("tollgate.rules.greet-gold.match", "header:X-Tier=gold");
        rule(builder, "greet-by-path", 1, "header:X-Api-Key, path");
        app = builder.start();
    }

    private static TestApp.Builder rule(TestApp.Builder builder, String rule, long burst, String key) {
        return builder.property("tollgate.rules." + rule + ".rate", "1/1h")
                .property("tollgate.rules." + rule + ".burst", Long.toString(burst))
                .property("tollgate.rules." + rule + ".key", key);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static String fresh() {
        return "client-" + UUID.randomUUID();
    }

    private static int status(String path, String... headers) throws Exception {
        return app.get(path, headers).statusCode();
    }

    /** Ways to write /items/7 (or its prefix) that a JAX-RS runtime routes to the same resource method. */
    private static final List<String> ITEM_SEVEN = List.of("items;m=1/7", "items/7;m=2", "items;a=1;b=2/7;c", "items/7/",
            "items//7", "%69tems/7", "items/%37", "items/7;");

    @Test
    void aPathRuleCannotBeDodgedByWritingThePathAnotherWay() throws Exception {
        String key = fresh();
        assertThat(status("items/7", "X-Api-Key", key)).isEqualTo(200);
        assertThat(status("items/7", "X-Api-Key", key)).isEqualTo(429);
        for (String variant : ITEM_SEVEN) {
            assertThat(status(variant, "X-Api-Key", key)).as(variant).isIn(429, 404);
        }
        // another item, and an item with an encoded slash: the same rule, the same bucket (or refused outright)
        assertThat(status("items/8", "X-Api-Key", key)).isEqualTo(429);
        assertThat(status("items/a%2Fb", "X-Api-Key", key)).isNotEqualTo(200);
    }

    @Test
    void everyWayOfWritingOnePathIsOneBucketOfAPathKey() throws Exception {
        String key = fresh();
        assertThat(status("keys/path/42", "X-Api-Key", key)).isEqualTo(200);
        for (String variant : List.of("keys/path/42;n=1", "keys/path/42;n=2", "keys/path/42/", "keys;v=2/path/42",
                "keys/path/%34%32", "keys//path/42")) {
            assertThat(status(variant, "X-Api-Key", key)).as(variant).isIn(429, 404);
        }
        // a different item is a different path: its own bucket
        assertThat(status("keys/path/43", "X-Api-Key", key)).isEqualTo(200);
        // a slash sent encoded stays inside its segment: not the path /keys/path/4/2
        assertThat(status("keys/path/4%2F2", "X-Api-Key", key)).isNotEqualTo(429);
    }

    @Test
    void aResourceReachedThroughASubResourceLocatorIsUnderThePathRule() throws Exception {
        String key = fresh();
        assertThat(status("orders/1/lines", "X-Api-Key", key)).isEqualTo(200);
        assertThat(status("orders/2/lines", "X-Api-Key", key)).isEqualTo(429);
        assertThat(status("orders;x=1/3/lines;y", "X-Api-Key", key)).isEqualTo(429);
    }

    @Test
    void anApiInterfaceIsLimitedWhereverTheAnnotationIsAndChargedOnce() throws Exception {
        for (String path : List.of("generated/on-class-method/1", "generated/on-interface-method/1", "generated-reports")) {
            String key = fresh();
            assertThat(status(path, "X-Api-Key", key)).as(path + ", first").isEqualTo(200);
            assertThat(status(path, "X-Api-Key", key)).as(path + ", second: the burst of 2 charged once per request")
                    .isEqualTo(200);
            assertThat(status(path, "X-Api-Key", key)).as(path + ", third").isEqualTo(429);
        }
    }

    @Test
    void aServiceCalledFromAServletKeysEachClientByItsOwnAddress() throws Exception {
        String a = "203.0.113." + (1 + Math.floorMod(UUID.randomUUID().hashCode(), 120));
        String b = "198.51.100." + (1 + Math.floorMod(UUID.randomUUID().hashCode(), 120));
        assertThat(status("greet/hi", "X-Forwarded-For", a)).as("A's first call").isEqualTo(200);
        assertThat(status("greet/hi", "X-Forwarded-For", a)).as("A's second call").isEqualTo(429);
        assertThat(status("greet/hi", "X-Forwarded-For", b)).as("B's first call: its own bucket").isEqualTo(200);
        assertThat(status("greet/hi", "X-Forwarded-For", b)).isEqualTo(429);
    }

    @Test
    void matchConditionsAndPathKeysHoldInTheServletPathAsInJaxRs() throws Exception {
        String key = fresh();
        assertThat(status("greet/hi?kind=gold", "X-Api-Key", key, "X-Tier", "gold")).isEqualTo(200);
        assertThat(status("greet/hi?kind=gold", "X-Api-Key", key, "X-Tier", "gold")).isEqualTo(429);
        for (int i = 0; i < 3; i++) {
            assertThat(status("greet/hi?kind=gold", "X-Api-Key", key, "X-Tier", "silver")).as("the rule does not apply")
                    .isEqualTo(200);
        }
        assertThat(status("greet/one?kind=path", "X-Api-Key", key)).isEqualTo(200);
        assertThat(status("greet/one?kind=path", "X-Api-Key", key)).isEqualTo(429);
        assertThat(status("greet/one/?kind=path", "X-Api-Key", key)).as("the same path").isEqualTo(429);
        assertThat(status("greet/two?kind=path", "X-Api-Key", key)).as("another path").isEqualTo(200);
    }

    @Test
    void outsideAnHttpRequestTheRequestPartsOfAKeyAreEmpty() throws Exception {
        GreetingService service = app.bean(GreetingService.class);
        // called from no request at all: key=ip has no client, so every such caller shares the bucket of ""
        String[] results = new String[2];
        Thread first = new Thread(() -> results[0] = outcome(service));
        first.start();
        first.join();
        Thread second = new Thread(() -> results[1] = outcome(service));
        second.start();
        second.join();
        assertThat(results).containsExactly("allowed", "denied");
    }

    private static String outcome(GreetingService service) {
        try {
            service.greet("nobody");
            return "allowed";
        } catch (io.tollgate.RateLimitExceededException e) {
            return "denied";
        }
    }
}

package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.CatalogResource;
import io.tollgate.app.InlineResource;
import io.tollgate.app.ItemsResource;
import io.tollgate.app.LookupService;
import io.tollgate.app.NumberFinderResource;
import io.tollgate.app.OwnLookupResource;
import io.tollgate.app.PlainLookupResource;
import io.tollgate.app.PlainResource;
import io.tollgate.app.ReportService;
import io.tollgate.app.ReportsResource;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where the check happens (filter, interceptor, or both) and that each request is charged once per
 * rule: counted by how many requests a burst lets through.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class ChargedOnceTest {

    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_400_000_000L * 1_000_000);
        app = TestApp.builder()
                .beans(SearchResource.class, ReportsResource.class, ReportService.class, InlineResource.class, ItemsResource.class,
                        LookupService.class, CatalogResource.class, NumberFinderResource.class)
                .resources(PlainResource.class, PlainLookupResource.class)
                .resourceInstances(new OwnLookupResource())
                .hazelcast(cluster.member(1))
                .property("tollgate.hazelcast.map", "once-" + UUID.randomUUID())
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "3")
                .property("tollgate.rules.plain.rate", "1/1h")
                .property("tollgate.rules.plain.burst", "2")
                .property("tollgate.rules.reports.rate", "1/1h")
                .property("tollgate.rules.reports.burst", "2")
                .property("tollgate.rules.llm.rate", "1/1h")
                .property("tollgate.rules.llm.burst", "5")
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.item-reads.rate", "1/1h")
                .property("tollgate.rules.item-reads.burst", "2")
                .property("tollgate.rules.item-reads.paths", "/items/*")
                .property("tollgate.rules.io.tollgate.app.InlineResource.get.burst", "4")
                .property("tollgate.rules.lookups.rate", "1/1h")
                .property("tollgate.rules.lookups.burst", "4")
                .property("tollgate.rules.lookups.key", "header:X-Api-Key")
                .property("tollgate.rules.catalog.rate", "1/1h")
                .property("tollgate.rules.catalog.burst", "2")
                .property("tollgate.rules.finder.rate", "1/1h")
                .property("tollgate.rules.finder.burst", "2")
                .start();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private int allowedOf(String path, int attempts) throws Exception {
        int allowed = 0;
        for (int i = 0; i < attempts; i++) {
            if (app.get(path).statusCode() == 200) {
                allowed++;
            }
        }
        return allowed;
    }

    @Test
    void aCdiResourceMethodIsChargedOnceNotTwice() throws Exception {
        assertThat(allowedOf("search?q=x", 6)).isEqualTo(3);
    }

    @Test
    void aResourceThatIsNotACdiBeanIsCheckedByTheFilter() throws Exception {
        assertThat(allowedOf("plain", 5)).isEqualTo(2);
    }

    @Test
    void aServiceWithTheNameParametersAndRuleOfTheResourceMethodIsChargedToo() throws Exception {
        assertChargedTwicePerRequest("own-lookup?q=tea");
    }

    @Test
    void aResourceThatIsNotABeanButIsInterceptedIsChargedOnceAndItsServiceOnce() throws Exception {
        assertChargedTwicePerRequest("plain-lookup?q=tea");
    }

    /** The rule {@code lookups} (burst 4) charged by the filter for the resource and by the interceptor for the service. */
    private static void assertChargedTwicePerRequest(String path) throws Exception {
        String key = "client-" + UUID.randomUUID();
        HttpResponse<String> first = app.get(path, "X-Api-Key", key);
        assertThat(first.body()).isEqualTo("found tea");
        assertThat(header(first, "RateLimit")).as("the resource's token and the service's: 2 of 4 left")
                .isEqualTo("\"lookups\";r=2;t=3600");
        assertThat(app.get(path, "X-Api-Key", key).statusCode()).isEqualTo(200);
        HttpResponse<String> denied = app.get(path, "X-Api-Key", key);
        assertThat(denied.statusCode()).as("the third request of a burst of 4, charged twice a request").isEqualTo(429);
        assertThat(json(denied).getString("rule")).isEqualTo("lookups");
    }

    @Test
    void aMethodInheritedFromAnAbstractResourceIsChargedOnce() throws Exception {
        assertThat(allowedOf("catalog/1", 4)).isEqualTo(2);
    }

    @Test
    void aMethodOfAGenericInterfaceIsChargedOnce() throws Exception {
        assertThat(app.get("finder/7").body()).isEqualTo("number 7");
        assertThat(allowedOf("finder/7", 3)).isEqualTo(1);
    }

    @Test
    void aCdiServiceIsLimitedByItsKeyArgumentAndMappedTo429() throws Exception {
        HttpResponse<String> first = app.get("reports/acme");
        assertThat(first.body()).isEqualTo("report for acme");
        assertThat(header(first, "RateLimit")).isEqualTo("\"reports\";r=1;t=3600");
        assertThat(app.get("reports/acme").statusCode()).isEqualTo(200);
        HttpResponse<String> denied = app.get("reports/acme");
        assertThat(denied.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(header(denied, "Retry-After"))).isBetween(3600L, 5400L);
        assertThat(header(denied, "RateLimit")).isEqualTo("\"reports\";r=0;t=3600");
        assertThat(json(denied).getString("rule")).isEqualTo("reports");
        assertThat(allowedOf("reports/globex", 4)).isEqualTo(2);
    }

    @Test
    void aServiceCalledSeveralTimesInOneRequestIsChargedForEachCall() throws Exception {
        HttpResponse<String> three = app.get("reports/complete?times=3");
        assertThat(three.statusCode()).isEqualTo(200);
        assertThat(header(three, "RateLimit")).startsWith("\"llm\";r=2;");
        HttpResponse<String> overdrawn = app.get("reports/complete?times=3");
        assertThat(overdrawn.statusCode()).isEqualTo(429);
        assertThat(json(overdrawn).getString("rule")).isEqualTo("llm");
    }

    @Test
    void aRuleDefinedInTheAnnotationIsNamedAfterTheMethodAndConfigurationOverridesIt() throws Exception {
        HttpResponse<String> first = app.get("inline");
        assertThat(header(first, "RateLimit-Policy")).isEqualTo("\"io.tollgate.app.InlineResource.get\";q=2;w=3600");
        assertThat(allowedOf("inline", 5)).isEqualTo(3);
    }

    @Test
    void pathRulesApplyWithoutAnAnnotation() throws Exception {
        assertThat(app.get("items/1").statusCode()).isEqualTo(200);
        assertThat(app.get("items/2").statusCode()).isEqualTo(200);
        HttpResponse<String> denied = app.get("items/3");
        assertThat(denied.statusCode()).isEqualTo(429);
        assertThat(json(denied).getString("rule")).isEqualTo("item-reads");
        assertThat(app.post("items").statusCode()).as("POST /items is not under /items/*").isEqualTo(200);
    }
}

package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.app.KeysResource;
import io.tollgate.app.SearchResource;
import io.tollgate.app.TwoKeysService;
import io.tollgate.internal.config.BadConfiguration;
import io.tollgate.testing.TestApp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Invalid configuration fails the deployment, at deployment, with a message that names the property
 * and the value; and the application never starts serving.
 */
class InvalidDeploymentTest {

    /** @return every message in the failure's chain of causes and suppressed exceptions */
    private static String messages(Throwable failure) {
        List<String> out = new ArrayList<>();
        collect(failure, out, 0);
        return String.join("\n", out);
    }

    private static void collect(Throwable t, List<String> out, int depth) {
        if (t == null || depth > 10) {
            return;
        }
        out.add(String.valueOf(t.getMessage()));
        for (Throwable s : t.getSuppressed()) {
            collect(s, out, depth + 1);
        }
        collect(t.getCause(), out, depth + 1);
    }

    private static void assertDeploymentFails(TestApp.Builder app, String... expectedLines) {
        assertThatThrownBy(app::start).satisfies(failure -> {
            String text = messages(failure);
            for (String line : expectedLines) {
                assertThat(text).contains(line);
            }
        });
    }

    private static TestApp.Builder search(String... properties) {
        TestApp.Builder app = TestApp.builder().beans(SearchResource.class).property("tollgate.store", "memory");
        for (int i = 0; i < properties.length; i += 2) {
            app.property(properties[i], properties[i + 1]);
        }
        return app;
    }

    @Test
    void aRuleUsedByAnAnnotationButNotConfigured() {
        assertDeploymentFails(search(),
                "tollgate.rules.search.rate is not set: rule 'search' (used by io.tollgate.app.SearchResource.search) needs a rate (or limits)");
    }

    @Test
    void badValuesAreAllReportedTogether() {
        assertDeploymentFails(search("tollgate.rules.search.rate", "ten", "tollgate.rules.other.rate", "5",
                        "tollgate.rules.other.brust", "20", "tollgate.headers", "fancy", "tollgate.store.timeout", "0s"),
                "Invalid Tollgate configuration (4 problems)",
                "tollgate.rules.search.rate = 'ten': not a rate; use tokens per second (10, 0.5) or <tokens>/<period> (1000/1h, 5/100ms)",
                "tollgate.rules.other.brust = '20': unknown rule attribute 'brust'",
                "tollgate.headers = 'fancy': must be one of ietf, legacy, x-ratelimit, none",
                "tollgate.store.timeout = '0s': must be more than 0 and at most 60s");
    }

    @Test
    void costsThatCouldNeverBeGranted() {
        assertDeploymentFails(search("tollgate.rules.search.rate", "10", "tollgate.rules.search.burst", "20",
                        "tollgate.rules.search.cost", "25"),
                "tollgate.rules.search.cost = '25': must be between min-cost 1 and max-cost 20 (the burst is 20)");
        assertDeploymentFails(search("tollgate.rules.search.rate", "10", "tollgate.rules.search.burst", "20",
                        "tollgate.rules.search.cost", "header:X-Weight", "tollgate.rules.search.max-cost", "100"),
                "tollgate.rules.search.max-cost = '100': exceeds the burst 20, so such a cost could never be granted");
    }

    @Test
    void unknownKeyAndCostSources() {
        assertDeploymentFails(search("tollgate.rules.search.rate", "10", "tollgate.rules.search.key", "cookie:session",
                        "tollgate.rules.search.cost", "body:size"),
                "tollgate.rules.search.key = 'cookie:session': 'cookie:session' is not a key; use ip, principal, header:<name>, query:<name>, jwt:<claim>, path, global or resolver:<class>",
                "tollgate.rules.search.cost = 'body:size': 'body:size' is not a cost; use a whole number, header:<name> or query:<name>");
    }

    @Test
    void aKeyResolverThatIsMissingOrNotABean() {
        assertDeploymentFails(search("tollgate.rules.search.rate", "10", "tollgate.rules.search.key", "resolver:com.example.Missing"),
                "tollgate.rules.search.key = 'resolver:com.example.Missing': no such class");
        assertDeploymentFails(search("tollgate.rules.search.rate", "10", "tollgate.rules.search.key", "resolver:io.tollgate.app.TenantKeys"),
                "tollgate.rules.search.key = 'resolver:io.tollgate.app.TenantKeys': the class is not a CDI bean");
        assertDeploymentFails(search("tollgate.rules.search.rate", "10", "tollgate.rules.search.key", "resolver:java.lang.String"),
                "tollgate.rules.search.key = 'resolver:java.lang.String': the class does not implement io.tollgate.RateLimitKeyResolver");
    }

    /**
     * Limits from a header need gateways of their own: a deployment that listed its gateway only in the trusted proxies
     * fails, told to set tollgate.limits-from.trusted-gateways; a bad gateway fails it naming the property and value.
     */
    @Test
    void limitsFromAHeaderWithoutTrustedGateways() {
        String[] rule = {"tollgate.rules.search.rate", "1/1h", "tollgate.rules.search.limits-from", "header:X-Plan-Limit",
                "tollgate.rules.search.max-limit", "10/1h", "tollgate.trusted-proxies", "10.0.0.5"};
        assertDeploymentFails(search(rule), "Invalid Tollgate configuration (1 problem)",
                "tollgate.rules.search.limits-from = 'header:X-Plan-Limit': a header is believed only from the gateways "
                        + "tollgate.limits-from.trusted-gateways names, and it names none; set it to the address of the layer "
                        + "that sets the header on every request (an API gateway, the application's TCP peer), or use "
                        + "jwt:<claim>; tollgate.trusted-proxies does not count");
        assertDeploymentFails(search(rule).property("tollgate.limits-from.trusted-gateways", "10.0.0.6/40"),
                "Invalid Tollgate configuration (1 problem)",
                "tollgate.limits-from.trusted-gateways = '10.0.0.6/40': '10.0.0.6/40' has a prefix length outside 0..32");
    }

    @Test
    void aMethodWithTwoKeyParameters() {
        assertDeploymentFails(TestApp.builder().beans(TwoKeysService.class).property("tollgate.store", "memory")
                        .property("tollgate.rules.two.rate", "1"),
                "io.tollgate.app.TwoKeysService.call has more than one @RateLimitKey parameter");
    }

    /**
     * A bad value of every property in the README's configuration reference, all in one deployment
     * (each rule attribute in a rule of its own): the deployment fails, and its error names every
     * property with its value.
     */
    @Test
    void aBadValueOfEveryDocumentedPropertyFailsOneDeploymentNamingEachPropertyAndValue() {
        TestApp.Builder app = TestApp.builder().beans(SearchResource.class).property("tollgate.rules.search.rate", "10");
        List<String> expected = new ArrayList<>();
        Set<String> properties = new HashSet<>();
        for (BadConfiguration.Case bad : BadConfiguration.cases()) {
            if (!properties.add(bad.property)) {
                continue; // the first bad value of each property
            }
            BadConfiguration.Case own = bad.isRuleAttribute() ? bad.forRule("bad-" + properties.size()) : bad;
            own.context.forEach(app::property);
            app.property(own.property, own.value);
            expected.add("  " + own.property + " = '" + own.value + "': ");
        }
        expected.add("Invalid Tollgate configuration (" + properties.size() + " problems)");
        assertDeploymentFails(app, expected.toArray(new String[0]));
        System.out.printf("invalid deployment: a bad value of each of the %d documented properties that can have one "
                + "(%d more take any text), in one deployment: it failed naming all %d%n", properties.size(),
                BadConfiguration.FREE_TEXT.size(), properties.size());
    }

    @Test
    void aMissingHazelcastConfigurationFile() {
        assertDeploymentFails(TestApp.builder().beans(KeysResource.class).properties(SampleRules.keys())
                        .beans(io.tollgate.app.TenantKeys.class)
                        .property("tollgate.hazelcast.config", "/nonexistent/hazelcast.yaml"),
                "tollgate.hazelcast.config = '/nonexistent/hazelcast.yaml': no such readable file");
    }
}

package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.Limit;
import io.tollgate.readme.HttpExample;
import io.tollgate.readme.JavaSnippets;
import io.tollgate.readme.PropertiesSettings;
import java.net.URI;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * README.md's Quick start, deployed exactly as written: its Java blocks (compiled at test time as a reader
 * would, {@code ...} completed and {@code Hit} stubbed), its properties as the
 * {@code META-INF/microprofile-config.properties}, Tollgate, and the Hazelcast it names (Liberty; Payara has
 * its own). Requests go to its resource until the status of the README's HTTP example arrives; that response
 * is compared with the example: status, every header shown (names, structured-field syntax, values), no
 * rate-limit header left out, and the body's fields and values.
 */
@ExtendWith(ArquillianExtension.class)
@DisabledIfSystemProperty(named = "it.server", matches = "quarkus",
        disabledReason = "the README's quick start is a WAR compiled from its text; Quarkus builds an application ahead of time, and its quick start is the Quarkus example, built and run by it-tests/examples")
class QuickStartIT {

    private static final int MAX_REQUESTS = 500;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return ReadmeExamples.quickStartWar("quick-start", ReadmeExamples.quickStartClasses());
    }

    @ArquillianResource
    URL base;

    @Test
    void theQuickStartAsWrittenDeploysAndDeniesAsTheReadmeShows() {
        JavaSnippets.Result compiled = ReadmeExamples.quickStartClasses();
        HttpExample example = ReadmeExamples.quickStartResponse();
        URI target = URI.create(base.toExternalForm()).resolve(ReadmeExamples.resourcePath(compiled));
        TollgateConfig config = ConfigReader.read(new PropertiesSettings(ReadmeExamples.quickStart("properties").text()), List.of());
        long burst = config.rules().values().stream().flatMap(r -> r.limits().stream()).mapToLong(Limit::burst).min().orElseThrow();

        int allowed = 0;
        RawResponse shown = null;
        for (int i = 0; i < MAX_REQUESTS && shown == null; i++) {
            RawResponse response = RawResponse.get(target);
            if (response.status() == example.status()) {
                shown = response;
            } else {
                assertEquals(200, response.status(), "GET " + target + " before the README's " + example.status() + ": " + response);
                allowed++;
            }
        }
        assertNotNull(shown, "no " + example.status() + " in " + MAX_REQUESTS + " requests to " + target);
        System.out.printf("[it] %s: Quick start (stubs %s): %d allowed, then:%n  README: HTTP/1.1 %d %s%n  server: %s%n"
                + "  server headers: %s%n  server body: %s%n", Deployments.SERVER, compiled.stubs(), allowed, example.status(),
                example.reason(), shown.statusLine(), shown.headers(), shown.body());
        assertTrue(allowed >= burst, "a fresh bucket lets the burst " + burst + " through, not " + allowed);

        List<String> differences = example.differences(shown.status(), shown.headers(), shown.body());
        if (!shown.statusLine().endsWith(" " + example.status() + " " + example.reason())) {
            System.out.println("[it] " + Deployments.SERVER + ": the reason phrase differs (reported, not compared): README '"
                    + example.reason() + "', server '" + shown.statusLine() + "'");
        }
        assertEquals(List.of(), differences, "README.md's Quick start shows a response the server does not send");
    }
}

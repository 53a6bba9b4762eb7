package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Invalid configuration fails the deployment, on the real server, with a message that names each property
 * and its value. Deployed by hand (managed = false) to observe the failure the same way on both servers.
 */
@ExtendWith(ArquillianExtension.class)
class InvalidConfigurationIT {

    @Deployment(name = "bad-values", managed = false, testable = false)
    static WebArchive badValues() {
        Map<String, String> changes = new HashMap<>();
        changes.put("tollgate.rules.search.rate", "ten");
        changes.put("tollgate.rules.uploads.max-cost", "100");
        return Deployments.war("bad-values", Deployments.contractConfig(changes));
    }

    @Deployment(name = "missing-rule", managed = false, testable = false)
    static WebArchive missingRule() {
        Map<String, String> changes = new HashMap<>();
        changes.put("tollgate.rules.search.rate", null);
        changes.put("tollgate.rules.search.burst", null);
        changes.put("tollgate.rules.search.key", null);
        return Deployments.war("missing-rule", Deployments.contractConfig(changes));
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void badValuesAreAllNamedWithTheirProperty() {
        String messages = deployAndExpectFailure("bad-values");
        assertContains(messages, "Invalid Tollgate configuration (2 problems)");
        assertContains(messages, "tollgate.rules.search.rate = 'ten': not a rate");
        assertContains(messages, "tollgate.rules.uploads.max-cost = '100': exceeds the burst 10");
    }

    @Test
    void aRuleUsedByAnAnnotationButNotConfigured() {
        String messages = deployAndExpectFailure("missing-rule");
        assertContains(messages, "tollgate.rules.search.rate is not set: rule 'search' "
                + "(used by io.tollgate.sample.SearchResource.search) needs a rate");
    }

    private String deployAndExpectFailure(String name) {
        Exception e = assertThrows(Exception.class, () -> deployer.deploy(name),
                name + " deployed, but its configuration is invalid");
        try {
            deployer.undeploy(name);
        } catch (RuntimeException ignored) {
            // nothing was deployed
        }
        String messages = messages(e);
        System.out.println("[it] " + Deployments.SERVER + ": " + name + " failed to deploy, as expected:\n" + messages);
        return messages;
    }

    private static void assertContains(String messages, String expected) {
        assertTrue(messages.contains(expected), "expected <" + expected + "> in:\n" + messages);
    }

    /** Every message in the cause chain (and suppressed exceptions). */
    private static String messages(Throwable failure) {
        StringBuilder out = new StringBuilder();
        collect(failure, out, 0);
        return out.toString();
    }

    private static void collect(Throwable t, StringBuilder out, int depth) {
        if (t == null || depth > 20) {
            return;
        }
        out.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
        for (Throwable s : t.getSuppressed()) {
            collect(s, out, depth + 1);
        }
        if (t.getCause() != t) {
            collect(t.getCause(), out, depth + 1);
        }
    }
}

package io.tollgate.it;

import io.tollgate.it.ejb.LedgerBean;
import io.tollgate.sample.SampleApplication;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WARs of the suite: the sample application (src/main) with Tollgate in WEB-INF/lib and a
 * {@code META-INF/microprofile-config.properties} of the test's choosing. On Open Liberty and WildFly the WAR
 * also bundles Hazelcast (Tollgate starts an embedded member); on Payara it does not (Tollgate uses Payara's
 * own Data Grid through JNDI {@code payara/Hazelcast}).
 */
public final class Deployments {

    /** Set per failsafe execution: payara | liberty | wildfly | quarkus. */
    public static final String SERVER = System.getProperty("it.server", "payara");

    private Deployments() {
    }

    public static boolean isLiberty() {
        return "liberty".equals(SERVER);
    }

    public static boolean isWildfly() {
        return "wildfly".equals(SERVER);
    }

    /**
     * Quarkus runs the sample application as Quarkus packaged it ({@code servers/quarkus-app}): a WAR's configuration
     * is used, its classes are not deployed (see {@code QuarkusProcessContainer}).
     */
    public static boolean isQuarkus() {
        return "quarkus".equals(SERVER);
    }

    /** @return the path of MicroProfile Health's readiness, under {@link #healthBase}: Quarkus's is under {@code /q} */
    public static String readinessPath() {
        return isQuarkus() ? "/q/health/ready" : "/health/ready";
    }

    /** Payara has a Hazelcast of its own (its Data Grid); on the other servers the WAR bundles one. */
    public static boolean isPayara() {
        return "payara".equals(SERVER);
    }

    /**
     * @return where the server of {@code base} (node-a) answers MicroProfile Health: WildFly on its management
     *         interface, the others next to the applications
     */
    public static URL healthBase(URL base) {
        if (!isWildfly()) {
            return base;
        }
        try {
            return URI.create("http://127.0.0.1:" + System.getProperty("wildfly.management.a") + "/").toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sample application as packaged, with its own configuration (the demo's). */
    public static WebArchive sampleAsShipped(String name) {
        return war(name, read(Path.of("src/main/resources/META-INF/microprofile-config.properties")));
    }

    /** The sample application with the suite's rules (configs/contract.properties). */
    public static WebArchive contract(String name) {
        return war(name, contractConfig(Map.of()));
    }

    /**
     * The sample application with the suite's rules, plus a stateless session bean with a rate-limited method
     * and the resource that calls it (package {@code io.tollgate.it.ejb}; Open Liberty needs
     * {@code enterpriseBeansLite-4.0}, which the test servers have).
     */
    public static WebArchive contractWithEjb(String name) {
        // Quarkus has no session beans: there the WAR has none, and the case that calls one is skipped
        return isQuarkus() ? contract(name) : contract(name).addPackage(LedgerBean.class.getPackage());
    }

    /**
     * The suite's rules with some properties replaced, added (a value) or removed (a {@code null} value).
     */
    public static String contractConfig(Map<String, String> changes) {
        List<String> lines = new ArrayList<>();
        for (String line : read(Path.of("src/test/resources/configs/contract.properties")).split("\n")) {
            int eq = line.indexOf('=');
            String key = line.startsWith("#") || eq < 0 ? null : line.substring(0, eq).trim();
            if (key == null || !changes.containsKey(key)) {
                lines.add(line);
            }
        }
        lines.add("");
        lines.add("# changed by the test");
        for (Map.Entry<String, String> change : new LinkedHashMap<>(changes).entrySet()) {
            if (change.getValue() != null) {
                lines.add(change.getKey() + "=" + change.getValue());
            }
        }
        return String.join("\n", lines) + "\n";
    }

    /** The sample application (every class of src/main) with this configuration. */
    public static WebArchive war(String name, String microprofileConfig) {
        return skeleton(name, microprofileConfig).addPackages(true, SampleApplication.class.getPackage());
    }

    /** Only these classes of the sample application, with this configuration. */
    public static WebArchive war(String name, String microprofileConfig, Class<?>... classes) {
        return skeleton(name, microprofileConfig).addClasses(classes);
    }

    private static WebArchive skeleton(String name, String microprofileConfig) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war")
                .addAsResource(new StringAsset(microprofileConfig), "META-INF/microprofile-config.properties")
                .addAsWebInfResource(new File("src/main/webapp/WEB-INF/beans.xml"), "beans.xml")
                .addAsLibraries(jar("it.tollgate.jar"));
        if (!isPayara()) {
            war.addAsLibraries(jar("it.hazelcast.jar"));
        }
        return war;
    }

    private static File jar(String property) {
        String path = System.getProperty(property);
        if (path == null || !new File(path).isFile()) {
            throw new IllegalStateException("system property " + property + " does not name a jar: " + path
                    + " (run the tests through Maven: failsafe sets it)");
        }
        return new File(path);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

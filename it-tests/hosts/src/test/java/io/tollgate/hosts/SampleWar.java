package io.tollgate.hosts;

import io.tollgate.sample.DenialCounter;
import io.tollgate.sample.DenialsResource;
import io.tollgate.sample.ReportService;
import io.tollgate.sample.ReportsResource;
import io.tollgate.sample.RuleOperations;
import io.tollgate.sample.SampleApplication;
import io.tollgate.sample.SearchResource;
import io.tollgate.sample.StatusResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * WARs of the sample application (it-tests/src/main, from the jar {@code tollgate-it-tests-...-classes}), built as the
 * it-tests build theirs: the classes, {@code WEB-INF/beans.xml}, Tollgate in {@code WEB-INF/lib}, and a
 * {@code META-INF/microprofile-config.properties} of the test's choosing. For Open Liberty the WAR also bundles
 * Hazelcast (Tollgate starts an embedded member); for Payara it must not (Tollgate uses Payara's Data Grid).
 *
 * <p>Its classes, unless the test names others ({@link #CLASSES}): {@code GET api/search?q=} (rule {@code search}),
 * {@code GET api/reports/{tenant}} (rule {@code reports}, keyed by the tenant), {@code GET api/status} (no rule),
 * {@code api/operator/rules/{rule}} (the live limits: read, change, override, revert) and {@code GET
 * api/denials/{rule}} (the denials and store failures the application observed). Its configuration must define the
 * rules {@code search} and {@code reports}.
 */
public final class SampleWar {

    /** The sample's classes a WAR has unless the test names others. */
    public static final List<Class<?>> CLASSES = List.of(SampleApplication.class, SearchResource.class,
            ReportsResource.class, ReportService.class, StatusResource.class, RuleOperations.class,
            DenialsResource.class, DenialCounter.class);

    private static final String BEANS_XML = String.join("\n",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<beans xmlns=\"https://jakarta.ee/xml/ns/jakartaee\"",
            "       xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"",
            "       xsi:schemaLocation=\"https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/beans_4_0.xsd\"",
            "       version=\"4.0\" bean-discovery-mode=\"annotated\">",
            "</beans>", "");

    private SampleWar() {
    }

    /** For Open Liberty: {@link #CLASSES}, Tollgate and Hazelcast. */
    public static WebArchive forLiberty(String name, Map<String, String> config) {
        return forLiberty(name, config, CLASSES);
    }

    public static WebArchive forLiberty(String name, Map<String, String> config, List<Class<?>> classes) {
        return war(name, config, classes).addAsLibraries(Rig.hazelcastJar().toFile());
    }

    /** For Payara: {@link #CLASSES} and Tollgate, no Hazelcast. */
    public static WebArchive forPayara(String name, Map<String, String> config) {
        return forPayara(name, config, CLASSES);
    }

    public static WebArchive forPayara(String name, Map<String, String> config, List<Class<?>> classes) {
        return war(name, config, classes);
    }

    /** @return the properties as the text of a {@code microprofile-config.properties}, in the map's order */
    public static String properties(Map<String, String> config) {
        List<String> lines = new ArrayList<>();
        config.forEach((name, value) -> lines.add(name + "=" + value));
        return String.join("\n", lines) + "\n";
    }

    private static WebArchive war(String name, Map<String, String> config, List<Class<?>> classes) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(classes.toArray(Class<?>[]::new))
                .addAsResource(new StringAsset(properties(config)), "META-INF/microprofile-config.properties")
                .addAsWebInfResource(new StringAsset(BEANS_XML), "beans.xml")
                .addAsLibraries(Rig.tollgateJar().toFile());
    }
}

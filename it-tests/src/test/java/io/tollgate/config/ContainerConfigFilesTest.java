package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.GlobalProperties;
import io.tollgate.internal.config.InvalidConfigurationException;
import io.tollgate.internal.config.Property;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The container files of server-config/ (kubernetes/ and compose/) as Kubernetes, Compose and Tollgate read them:
 * every YAML document parses and is of the kind expected; every {@code TOLLGATE_*} variable they set is a property
 * Tollgate knows (MicroProfile Config's mapping of environment variables, reversed), and Tollgate's configuration
 * reader validates them with the values the files give (a plausible pod address, namespace and secret where
 * Kubernetes fills them in); and the pieces fit together: replicas, min-members and quorum, the headless Service
 * and the member port, the probes, the image's server.xml, the Compose network and member list.
 */
class ContainerConfigFilesTest {

    private static final Path SERVER_CONFIG = Path.of("../server-config");
    private static final Path KUBERNETES = SERVER_CONFIG.resolve("kubernetes");
    private static final Path COMPOSE = SERVER_CONFIG.resolve("compose");
    private static final Path COMPOSE_FILE = COMPOSE.resolve("compose.yaml");
    private static final Path ENV_EXAMPLE = COMPOSE.resolve("tollgate.env.example");

    /** What the downward API and the Secret give a pod here, in place of the cluster's. */
    private static final String POD_IP = "10.0.0.7";
    private static final String NAMESPACE = "team-a";
    private static final String SECRET = "s3cret";
    private static final Map<String, String> DOWNWARD_API = Map.of("status.podIP", POD_IP, "metadata.namespace", NAMESPACE);

    private static final Pattern VARIABLE_REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
    private static final String RULES_ENV = "TOLLGATE_RULES_";

    // ------------------------------------------------------------------ Kubernetes

    @Test
    void everyManifestIsYamlOfTheExpectedKind() {
        List<String> kinds = new ArrayList<>();
        for (Path file : yamlFiles(KUBERNETES)) {
            for (Map<String, Object> document : documents(file)) {
                assertNotNull(document.get("apiVersion"), file + ": apiVersion");
                String kind = string(document.get("kind"));
                assertNotNull(kind, file + ": kind");
                if (!kind.equals("Kustomization")) {
                    assertNotNull(string(map(document.get("metadata")).get("name")), file + ": metadata.name of a " + kind);
                }
                kinds.add(kind);
            }
        }
        kinds.sort(Comparator.naturalOrder());
        assertEquals(List.of("Deployment", "Kustomization", "NetworkPolicy", "Secret", "Service", "Service"), kinds);
    }

    @Test
    void theKustomizationAppliesEveryManifestButTheSecret() {
        List<Object> resources = list(documents(KUBERNETES.resolve("kustomization.yaml")).get(0).get("resources"));
        Set<String> manifests = yamlFiles(KUBERNETES).stream().map(file -> file.getFileName().toString())
                .filter(name -> !name.equals("kustomization.yaml") && !name.equals("secret.yaml")).collect(Collectors.toSet());
        assertEquals(manifests, resources.stream().map(Object::toString).collect(Collectors.toSet()));
        assertEquals(resources.size(), Set.copyOf(resources).size(), "each resource once");
    }

    @Test
    void theDeploymentsEnvironmentIsAValidTollgateConfiguration() {
        Kubernetes k8s = new Kubernetes();
        Map<String, String> properties = properties(k8s.environment(SECRET));
        TollgateConfig config = assertDoesNotThrow(() -> ConfigReader.read(Settings.of(properties), List.of()),
                () -> "the Deployment's environment, as " + properties);

        assertEquals(POD_IP, config.hazelcast().bindInterface(), "the member binds to the pod's address");
        assertEquals(Optional.of(SECRET), config.hazelcast().clusterName());
        assertEquals(Optional.of(k8s.headlessName() + "." + NAMESPACE + ".svc.cluster.local"),
                config.hazelcast().kubernetesServiceDns(), "the headless Service of this namespace");
        assertEquals(List.of(), config.hazelcast().clientAddresses(), "an embedded member, not a client");
        assertTrue(config.cluster().minMembers() > 1, "min-members is set");
        assertTrue(config.cluster().quorum() > 0, "a quorum is set");
    }

    @Test
    void theSecretAsItIsFailsTheDeploymentNamingTheClusterName() {
        Kubernetes k8s = new Kubernetes();
        Map<String, String> properties = properties(k8s.environment(null));
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> ConfigReader.read(Settings.of(properties), List.of()), "the Secret's placeholder must not deploy");
        assertTrue(e.getMessage().contains("tollgate.hazelcast.cluster-name"), e.getMessage());
    }

    @Test
    void theReplicasTheQuorumTheServicesAndTheProbesFitTogether() {
        Kubernetes k8s = new Kubernetes();
        TollgateConfig config = ConfigReader.read(Settings.of(properties(k8s.environment(SECRET))), List.of());
        int replicas = integer(k8s.deploymentSpec.get("replicas"));
        int minMembers = config.cluster().minMembers();
        int quorum = config.cluster().quorum();
        assertTrue(replicas >= minMembers, "replicas " + replicas + " >= min-members " + minMembers);
        assertTrue(2 * quorum > replicas && quorum <= replicas, "quorum " + quorum + " is a majority of " + replicas + " replicas");

        Map<String, Object> podLabels = map(map(k8s.template.get("metadata")).get("labels"));
        assertSelects(map(map(k8s.deploymentSpec.get("selector")).get("matchLabels")), podLabels, "the Deployment's selector");
        assertEquals(false, k8s.podSpec.get("enableServiceLinks"), "no Service variables that could read as Tollgate's");

        // the headless Service: every pod's address, ready or not, on the member port
        Map<String, Object> headless = k8s.headless();
        Map<String, Object> headlessSpec = map(headless.get("spec"));
        assertEquals(true, headlessSpec.get("publishNotReadyAddresses"), "members find each other before they are ready");
        assertSelects(map(headlessSpec.get("selector")), podLabels, "the headless Service");
        int memberPort = config.hazelcast().port();
        List<Object> headlessPorts = list(headlessSpec.get("ports"));
        assertEquals(1, headlessPorts.size(), "the headless Service has the member port only");
        Map<String, Object> headlessPort = map(headlessPorts.get(0));
        assertEquals(memberPort, integer(headlessPort.get("port")), "the port Hazelcast's DNS discovery contacts");
        assertEquals(memberPort, k8s.containerPort(headlessPort.getOrDefault("targetPort", headlessPort.get("port"))),
                "the Service's target is the member's port");
        assertEquals(k8s.headlessName(), config.hazelcast().kubernetesServiceDns().orElseThrow().split("\\.")[0]);

        // the HTTP Service: the server's HTTP port
        int httpPort = Integer.parseInt(libertyHttpPort(KUBERNETES.resolve("server.xml")));
        List<Map<String, Object>> others = k8s.services.stream().filter(service -> service != headless).toList();
        assertEquals(1, others.size(), "one Service for HTTP");
        Map<String, Object> httpSpec = map(others.get(0).get("spec"));
        assertNull(httpSpec.get("clusterIP"), "a normal Service");
        assertSelects(map(httpSpec.get("selector")), podLabels, "the HTTP Service");
        for (Object port : list(httpSpec.get("ports"))) {
            Map<String, Object> p = map(port);
            assertEquals(httpPort, k8s.containerPort(p.getOrDefault("targetPort", p.get("port"))), "the HTTP Service's target");
        }

        // the probes: Liberty's mpHealth on the HTTP port
        Map<String, Object> readiness = map(map(k8s.container.get("readinessProbe")).get("httpGet"));
        assertEquals("/health/ready", readiness.get("path"));
        assertEquals(httpPort, k8s.containerPort(readiness.get("port")));
        Map<String, Object> liveness = map(map(k8s.container.get("livenessProbe")).get("httpGet"));
        assertEquals("/health/live", liveness.get("path"));
        assertEquals(httpPort, k8s.containerPort(liveness.get("port")));
        assertNotNull(k8s.podSpec.get("terminationGracePeriodSeconds"));
        assertNotNull(map(map(k8s.container.get("resources")).get("requests")).get("memory"));

        // the NetworkPolicy: the member port from the application's pods only
        Map<String, Object> policy = k8s.one("NetworkPolicy");
        Map<String, Object> policySpec = map(policy.get("spec"));
        assertSelects(map(map(policySpec.get("podSelector")).get("matchLabels")), podLabels, "the NetworkPolicy");
        assertTrue(list(policySpec.get("policyTypes")).contains("Ingress"));
        boolean fromPods = false;
        for (Object rule : list(policySpec.get("ingress"))) {
            Map<String, Object> r = map(rule);
            boolean coversMemberPort = r.get("ports") == null
                    || list(r.get("ports")).stream().anyMatch(p -> k8s.containerPort(map(p).get("port")) == memberPort);
            if (!coversMemberPort) {
                continue;
            }
            List<Object> from = r.get("from") == null ? List.of() : list(r.get("from"));
            assertFalse(from.isEmpty(), "the member port is open to every source: " + r);
            for (Object peer : from) {
                Map<String, Object> selector = map(map(peer).get("podSelector"));
                assertEquals(Set.of("podSelector"), map(peer).keySet(), "the member port from other than the pods: " + peer);
                assertSelects(map(selector.get("matchLabels")), podLabels, "the member port's peers");
            }
            fromPods = true;
        }
        assertTrue(fromPods, "the NetworkPolicy lets the members reach each other");
    }

    @Test
    void theImageServesHttpOnEveryAddressWithTheFeaturesOfLibertysServerXml() throws Exception {
        Document container = xml(KUBERNETES.resolve("server.xml"));
        Document liberty = xml(SERVER_CONFIG.resolve("liberty/server.xml"));
        assertEquals(features(liberty), features(container), "kubernetes/server.xml keeps liberty/server.xml's features");
        Element endpoint = (Element) container.getElementsByTagName("httpEndpoint").item(0);
        assertEquals("*", endpoint.getAttribute("host"), "HTTP on the pod's address, for the probes and the Services");
        assertEquals("-1", endpoint.getAttribute("httpsPort"));

        List<String> dockerfile = Files.readAllLines(KUBERNETES.resolve("Dockerfile"));
        assertTrue(dockerfile.stream().anyMatch(line -> line.startsWith("FROM icr.io/appcafe/open-liberty:")), "an Open Liberty image");
        Map<String, String> copies = new TreeMap<>();
        for (String line : dockerfile) {
            if (line.startsWith("COPY ")) {
                String[] words = line.split("\\s+");
                copies.put(words[words.length - 2], words[words.length - 1]);
            }
        }
        assertEquals("/config/server.xml", copies.get("server-config/kubernetes/server.xml"));
        assertEquals("/config/jvm.options", copies.get("server-config/liberty/jvm.options"));
        for (String source : copies.keySet()) {
            if (source.startsWith("server-config/")) {
                assertTrue(Files.exists(SERVER_CONFIG.resolveSibling(source)), "the build context holds " + source);
            }
        }
        // a build-time variable too must be one of Tollgate's
        Matcher variable = Pattern.compile("\\bTOLLGATE_[A-Z0-9_]+").matcher(String.join("\n", dockerfile));
        while (variable.find()) {
            assertNotNull(property(variable.group()), "the Dockerfile's " + variable.group() + " is no property of Tollgate's");
        }
    }

    // ------------------------------------------------------------------ Compose

    @Test
    void theComposeServicesFormOneClusterOnTheirOwnNetwork() {
        Compose compose = new Compose();
        assertTrue(compose.services.size() >= 2, "at least two instances");
        Map<String, Object> networks = map(compose.file.get("networks"));
        assertEquals(1, networks.size(), "one user-defined network");
        String network = networks.keySet().iterator().next();
        String subnet = string(map(list(map(map(networks.get(network)).get("ipam")).get("config")).get(0)).get("subnet"));
        assertNotNull(subnet, "a subnet of its own, so that the addresses are known before the containers start");

        Map<String, String> addresses = new LinkedHashMap<>();
        compose.services.forEach((name, service) -> {
            String address = string(map(map(service.get("networks")).get(network)).get("ipv4_address"));
            assertNotNull(address, name + ": a fixed address on " + network);
            assertTrue(inSubnet(address, subnet), name + ": " + address + " in " + subnet);
            addresses.put(name, address);
        });
        assertEquals(addresses.size(), Set.copyOf(addresses.values()).size(), "one address each");

        String image = null;
        for (Map.Entry<String, Map<String, Object>> entry : compose.services.entrySet()) {
            String name = entry.getKey();
            Map<String, Object> service = entry.getValue();
            image = image == null ? string(service.get("image")) : image;
            assertEquals(image, service.get("image"), name + ": the same image");
            Map<String, Object> build = map(service.get("build"));
            Path dockerfile = COMPOSE.resolve(string(build.get("context"))).resolve(string(build.get("dockerfile"))).normalize();
            assertEquals(KUBERNETES.resolve("Dockerfile").normalize(), dockerfile, name + ": built by kubernetes/Dockerfile");

            Map<String, String> environment = compose.environment(name, SECRET);
            Map<String, String> properties = properties(environment);
            TollgateConfig config = assertDoesNotThrow(() -> ConfigReader.read(Settings.of(properties), List.of()),
                    () -> name + "'s environment, as " + properties);
            assertTrue(matchesInterface(config.hazelcast().bindInterface(), addresses.get(name)),
                    name + ": the member binds to its own address " + addresses.get(name) + ", not " + config.hazelcast().bindInterface());
            int port = config.hazelcast().port();
            for (Map.Entry<String, String> other : addresses.entrySet()) {
                assertTrue(config.hazelcast().members().contains(other.getValue() + ":" + port)
                        || config.hazelcast().members().contains(other.getKey() + ":" + port),
                        name + ": tollgate.hazelcast.members names " + other.getKey() + " (" + other.getValue() + ":" + port + ")");
            }
            assertTrue(config.cluster().minMembers() > 1 && config.cluster().minMembers() <= compose.services.size(),
                    name + ": min-members " + config.cluster().minMembers() + " of " + compose.services.size() + " instances");
            assertTrue(config.hazelcast().clusterName().isPresent(), name + ": a cluster name");

            int httpPort = Integer.parseInt(libertyHttpPort(KUBERNETES.resolve("server.xml")));
            List<Object> ports = list(service.get("ports"));
            assertFalse(ports.isEmpty(), name + ": HTTP published");
            for (Object published : ports) {
                String[] parts = published.toString().split(":");
                assertEquals(3, parts.length, name + ": " + published + " names the host address");
                assertEquals("127.0.0.1", parts[0], name + ": published on the host's loopback only");
                assertEquals(httpPort, Integer.parseInt(parts[2]), name + ": only the HTTP port is published");
            }
            assertNull(service.get("network_mode"), name + ": on the user-defined network");
        }
    }

    @Test
    void theEnvFileExampleHoldsTheClusterNameAndFailsTheDeploymentAsItIs() throws IOException {
        Compose compose = new Compose();
        Map<String, String> example = envFile(ENV_EXAMPLE);
        assertEquals(Set.of("TOLLGATE_HAZELCAST_CLUSTER_NAME"), example.keySet());
        for (String name : compose.services.keySet()) {
            assertEquals(List.of("tollgate.env"), compose.envFiles(name), name + ": the cluster name from tollgate.env");
            Map<String, String> properties = properties(compose.environment(name, null));
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                    () -> ConfigReader.read(Settings.of(properties), List.of()), name + ": the example as it is must not deploy");
            assertTrue(e.getMessage().contains("tollgate.hazelcast.cluster-name"), e.getMessage());
        }
        assertTrue(Files.readAllLines(COMPOSE.resolve(".gitignore")).contains("tollgate.env"), "tollgate.env is never committed");
    }

    // ------------------------------------------------------------------ MicroProfile Config's mapping, reversed

    @Test
    void environmentVariablesNameTheirPropertiesAsMicroProfileConfigMapsThem() {
        assertEquals("tollgate.hazelcast.kubernetes.service-dns", property("TOLLGATE_HAZELCAST_KUBERNETES_SERVICE_DNS"));
        assertEquals("tollgate.cluster.min-members", property("TOLLGATE_CLUSTER_MIN_MEMBERS"));
        assertEquals("tollgate.rules", property("TOLLGATE_RULES"));
        assertEquals("tollgate.rules.search.on-store-failure", property("TOLLGATE_RULES_SEARCH_ON_STORE_FAILURE"));
        assertEquals("tollgate.rules.search.rate", property("TOLLGATE_RULES_SEARCH_RATE"));
        assertNull(property("TOLLGATE_HAZELCAST_MEMBER"));
        assertNull(property("TOLLGATE_RULES_SEARCH_BRUST"));
        assertNull(property("tollgate.cluster.quorum"), "an environment variable's name, not the property's");
    }

    // ------------------------------------------------------------------ helpers

    /** The Deployment, its pod and its container, the Services and the Secret. */
    private static final class Kubernetes {
        final List<Map<String, Object>> documents = yamlFiles(KUBERNETES).stream().flatMap(file -> documents(file).stream()).toList();
        final Map<String, Object> deploymentSpec = map(one("Deployment").get("spec"));
        final Map<String, Object> template = map(deploymentSpec.get("template"));
        final Map<String, Object> podSpec = map(template.get("spec"));
        final Map<String, Object> container;
        final List<Map<String, Object>> services = documents.stream().filter(d -> "Service".equals(d.get("kind"))).toList();

        Kubernetes() {
            List<Object> containers = list(podSpec.get("containers"));
            assertEquals(1, containers.size(), "one container: the application's");
            container = map(containers.get(0));
        }

        Map<String, Object> one(String kind) {
            List<Map<String, Object>> found = documents.stream().filter(d -> kind.equals(d.get("kind"))).toList();
            assertEquals(1, found.size(), "one " + kind);
            return found.get(0);
        }

        Map<String, Object> headless() {
            List<Map<String, Object>> found = services.stream().filter(s -> "None".equals(map(s.get("spec")).get("clusterIP"))).toList();
            assertEquals(1, found.size(), "one headless Service");
            return found.get(0);
        }

        String headlessName() {
            return string(map(headless().get("metadata")).get("name"));
        }

        /** @return the container port a Service's, probe's or policy's port names (by name or number) */
        int containerPort(Object port) {
            for (Object p : list(container.get("ports"))) {
                Map<String, Object> declared = map(p);
                if (Objects.equals(declared.get("name"), port) || Objects.equals(declared.get("containerPort"), port)) {
                    return integer(declared.get("containerPort"));
                }
            }
            return fail("the container declares no port " + port);
        }

        /**
         * @param secret the value of the Secret's key, or {@code null} for the one secret.yaml holds
         * @return the container's environment as the pod sees it, in order, {@code $(VAR)} expanded as Kubernetes does
         */
        Map<String, String> environment(String secret) {
            Map<String, String> environment = new LinkedHashMap<>();
            for (Object item : list(container.get("env"))) {
                Map<String, Object> variable = map(item);
                String name = string(variable.get("name"));
                String value;
                if (variable.containsKey("value")) {
                    value = expand(string(variable.get("value")), environment, name);
                } else {
                    Map<String, Object> from = map(variable.get("valueFrom"));
                    if (from.containsKey("fieldRef")) {
                        String field = string(map(from.get("fieldRef")).get("fieldPath"));
                        value = DOWNWARD_API.get(field);
                        assertNotNull(value, name + ": from " + field + ", which this test does not stand in for");
                    } else if (from.containsKey("secretKeyRef")) {
                        Map<String, Object> ref = map(from.get("secretKeyRef"));
                        String held = secretValue(string(ref.get("name")), string(ref.get("key")));
                        value = secret == null ? held : secret;
                    } else {
                        return fail(name + ": from " + from.keySet() + ", which this test does not stand in for");
                    }
                }
                environment.put(name, value);
            }
            return environment;
        }

        /** @return the value of {@code key} in the Secret {@code name} of secret.yaml, which must hold it */
        private String secretValue(String name, String key) {
            Map<String, Object> secret = one("Secret");
            assertEquals(name, map(secret.get("metadata")).get("name"), "the Secret the Deployment refers to");
            Map<String, Object> stringData = secret.get("stringData") == null ? Map.of() : map(secret.get("stringData"));
            Map<String, Object> data = secret.get("data") == null ? Map.of() : map(secret.get("data"));
            if (stringData.containsKey(key)) {
                return Objects.toString(stringData.get(key), "");
            }
            assertTrue(data.containsKey(key), "the Secret " + name + " has the key " + key);
            return new String(Base64.getDecoder().decode(Objects.toString(data.get(key), "")), StandardCharsets.UTF_8);
        }

        /** Kubernetes expands {@code $(VAR)} with the variables defined before; a reference to none stays as it is. */
        private static String expand(String value, Map<String, String> defined, String name) {
            Matcher reference = VARIABLE_REFERENCE.matcher(value);
            StringBuilder expanded = new StringBuilder();
            while (reference.find()) {
                String referred = reference.group(1);
                assertTrue(defined.containsKey(referred), name + " refers to $(" + referred + "), not defined before it");
                reference.appendReplacement(expanded, Matcher.quoteReplacement(defined.get(referred)));
            }
            return reference.appendTail(expanded).toString();
        }
    }

    /** The Compose file's services, and each one's environment. */
    private static final class Compose {
        final Map<String, Object> file = documents(COMPOSE_FILE).get(0);
        final Map<String, Map<String, Object>> services = new LinkedHashMap<>();

        Compose() {
            map(file.get("services")).forEach((name, service) -> services.put(name, map(service)));
        }

        List<String> envFiles(String service) {
            Object envFile = services.get(service).get("env_file");
            return envFile == null ? List.of() : envFile instanceof List<?> files ? files.stream().map(Object::toString).toList()
                    : List.of(envFile.toString());
        }

        /**
         * @param secret the cluster name in tollgate.env, or {@code null} for tollgate.env.example's
         * @return what the container sees: its env files (here the example), then its {@code environment}, which wins
         */
        Map<String, String> environment(String service, String secret) {
            Map<String, String> environment = new LinkedHashMap<>();
            for (String envFile : envFiles(service)) {
                assertEquals("tollgate.env", envFile, service + ": an env file this test knows the example of");
                try {
                    envFile(ENV_EXAMPLE).forEach((name, value) -> environment.put(name,
                            secret != null && name.equals("TOLLGATE_HAZELCAST_CLUSTER_NAME") ? secret : value));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            Object declared = services.get(service).get("environment");
            if (declared instanceof Map<?, ?> variables) {
                variables.forEach((name, value) -> environment.put(name.toString(), Objects.toString(value, "")));
            } else if (declared instanceof List<?> variables) {
                for (Object variable : variables) {
                    String[] parts = variable.toString().split("=", 2);
                    environment.put(parts[0], parts.length > 1 ? parts[1] : "");
                }
            }
            return environment;
        }
    }

    /**
     * @return Tollgate's properties among {@code environment}, by name; every variable named TOLLGATE_* must be one
     */
    private static Map<String, String> properties(Map<String, String> environment) {
        Map<String, String> properties = new LinkedHashMap<>();
        environment.forEach((name, value) -> {
            if (name.startsWith("TOLLGATE_")) {
                String property = property(name);
                assertNotNull(property, name + " is no property of Tollgate's (known: " + KNOWN.keySet() + ", and "
                        + RULES_ENV + "<NAME>_<ATTRIBUTE> for the attributes " + RULE_ATTRIBUTES + ")");
                properties.put(property, value);
            }
        });
        return properties;
    }

    /** The environment variable of each global property, as MicroProfile Config looks it up, and the property. */
    private static final Map<String, String> KNOWN = Stream.concat(GlobalProperties.ALL.stream().map(Property::name),
            Stream.of(ConfigReader.RULES)).collect(Collectors.toMap(ContainerConfigFilesTest::environmentName, Function.identity()));
    /** The attributes of a rule, as Tollgate's configuration reader knows them. */
    private static final List<String> RULE_ATTRIBUTES = ruleAttributes();

    /**
     * MicroProfile Config finds {@code tollgate.cluster.min-members} in the environment as
     * {@code TOLLGATE_CLUSTER_MIN_MEMBERS}: each character that is not a letter or digit becomes {@code _}, and
     * the rest is upper-cased.
     */
    private static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** @return the property the environment variable {@code name} sets, or {@code null} if it sets none of Tollgate's */
    private static String property(String name) {
        String global = KNOWN.get(name);
        if (global != null) {
            return global;
        }
        if (name.startsWith(RULES_ENV)) {
            for (String attribute : RULE_ATTRIBUTES) {
                String suffix = "_" + environmentName(attribute);
                if (name.endsWith(suffix) && name.length() > RULES_ENV.length() + suffix.length()) {
                    String rule = name.substring(RULES_ENV.length(), name.length() - suffix.length()).toLowerCase(Locale.ROOT);
                    return ConfigReader.RULES + "." + rule + "." + attribute;
                }
            }
        }
        return null;
    }

    /**
     * @return the attributes of a rule, aliases too, longest first, as Tollgate's configuration reader knows them:
     *         from its refusal of an unknown one ("unknown rule attribute 'x'; known ones are rate, tokens-per-second, ...")
     */
    private static List<String> ruleAttributes() {
        Map<String, String> properties = Map.of("tollgate.rules.probe.rate", "1", "tollgate.rules.probe.no-such-attribute", "1");
        InvalidConfigurationException refused = assertThrows(InvalidConfigurationException.class,
                () -> ConfigReader.read(Settings.of(properties), List.of()));
        Matcher known = Pattern.compile("known ones are ([a-z, -]+)").matcher(refused.getMessage());
        assertTrue(known.find(), "the reader names the rule attributes it knows: " + refused.getMessage());
        List<String> attributes = new ArrayList<>(List.of(known.group(1).split(",\\s*")));
        assertTrue(attributes.contains("rate") && attributes.contains("on-store-failure"), "the rule attributes: " + attributes);
        attributes.sort(Comparator.comparingInt(String::length).reversed());
        return List.copyOf(attributes);
    }

    private static List<Path> yamlFiles(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.toString().endsWith(".yaml") || file.toString().endsWith(".yml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every YAML document of {@code file}, each a mapping */
    private static List<Map<String, Object>> documents(Path file) {
        List<Map<String, Object>> documents = new ArrayList<>();
        try {
            for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
                if (document != null) {
                    documents.add(map(document));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertFalse(documents.isEmpty(), file + " has a document");
        return documents;
    }

    private static Map<String, String> envFile(Path file) throws IOException {
        Map<String, String> variables = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.split("=", 2);
                assertEquals(2, parts.length, file + ": NAME=value, not " + line);
                variables.put(parts[0].trim(), parts[1]);
            }
        }
        return variables;
    }

    private static void assertSelects(Map<String, Object> selector, Map<String, Object> labels, String what) {
        assertFalse(selector.isEmpty(), what + " selects by some label");
        selector.forEach((label, value) -> assertEquals(value, labels.get(label), what + " selects the Deployment's pods (" + label + ")"));
    }

    /** @return whether {@code address} is an address of the IPv4 {@code subnet} (a.b.c.d/n) */
    private static boolean inSubnet(String address, String subnet) {
        String[] network = subnet.split("/");
        int bits = Integer.parseInt(network[1]);
        long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
        return (ipv4(address) & mask) == (ipv4(network[0]) & mask);
    }

    private static long ipv4(String address) {
        long value = 0;
        for (String part : address.split("\\.")) {
            value = (value << 8) | Integer.parseInt(part);
        }
        return value;
    }

    /** @return whether {@code address} is {@code pattern}, an address or a Hazelcast interface pattern (10.0.0.*, 10.0.0.10-20) */
    private static boolean matchesInterface(String pattern, String address) {
        String[] patterns = pattern.split("\\.");
        String[] parts = address.split("\\.");
        if (patterns.length != 4 || parts.length != 4) {
            return pattern.equals(address);
        }
        for (int i = 0; i < 4; i++) {
            int part = Integer.parseInt(parts[i]);
            String p = patterns[i];
            if (p.equals("*")) {
                continue;
            }
            String[] range = p.split("-");
            if (part < Integer.parseInt(range[0]) || part > Integer.parseInt(range[range.length - 1])) {
                return false;
            }
        }
        return true;
    }

    private static Document xml(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static List<String> features(Document server) {
        NodeList features = server.getElementsByTagName("feature");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < features.getLength(); i++) {
            names.add(features.item(i).getTextContent().trim());
        }
        assertFalse(names.isEmpty());
        return names;
    }

    /** @return the default of the server's {@code http.port} variable, which its HTTP endpoint listens on */
    private static String libertyHttpPort(Path serverXml) {
        try {
            Document server = xml(serverXml);
            Element endpoint = (Element) server.getElementsByTagName("httpEndpoint").item(0);
            assertEquals("${http.port}", endpoint.getAttribute("httpPort"));
            NodeList variables = server.getElementsByTagName("variable");
            for (int i = 0; i < variables.getLength(); i++) {
                Element variable = (Element) variables.item(i);
                if (variable.getAttribute("name").equals("http.port")) {
                    return variable.getAttribute("defaultValue");
                }
            }
            return fail(serverXml + " has no http.port");
        } catch (Exception e) {
            throw new AssertionError(serverXml + ": " + e, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        assertTrue(value instanceof Map, "a mapping, not " + value);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        assertTrue(value instanceof List, "a list, not " + value);
        return (List<Object>) value;
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    private static int integer(Object value) {
        assertTrue(value instanceof Integer, "a number, not " + value);
        return (Integer) value;
    }
}

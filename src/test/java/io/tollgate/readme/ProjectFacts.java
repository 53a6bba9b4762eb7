package io.tollgate.readme;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What the build states, read from the poms (each with the shared versions of parent/pom.xml): this
 * project's coordinates, the Hazelcast range it supports
 * ({@code hazelcast.version} to {@code hazelcast.latest.version}), the dependencies it uses, the sample
 * application's name and the demo's port (it-tests), and the profiles and plugin executions of each pom (the it-tests' servers
 * included: it-tests/servers and its modules, it-tests/hosts; the Quarkus extension, quarkus/).
 */
public final class ProjectFacts {

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    public final String groupId;
    public final String artifactId;
    /** The artifact a Quarkus application adds instead (quarkus/runtime), at the same version. */
    public final String quarkusArtifactId;
    public final String version;
    public final String hazelcastOldest;
    public final String hazelcastNewest;
    /** groupId:artifactId → version, of every pom's dependencies and plugins. */
    public final Map<String, String> dependencies = new LinkedHashMap<>();
    public final String sampleName;
    public final String demoPort;
    private final Map<Path, Pom> poms = new LinkedHashMap<>();

    /** One pom's profiles and execution ids. */
    private record Pom(List<String> profiles, List<String> executions) {
    }

    public ProjectFacts(Path root) {
        Document parent = parse(root.resolve("parent/pom.xml"));
        Document main = parse(root.resolve("pom.xml"));
        Document it = parse(root.resolve("it-tests/pom.xml"));
        Map<String, String> shared = properties(parent);
        Map<String, String> mainProps = properties(shared, main);
        Map<String, String> itProps = properties(shared, it);
        groupId = child(main.getDocumentElement(), "groupId");
        artifactId = child(main.getDocumentElement(), "artifactId");
        version = child(main.getDocumentElement(), "version");
        Document quarkus = parse(root.resolve("quarkus/runtime/pom.xml"));
        quarkusArtifactId = child(quarkus.getDocumentElement(), "artifactId");
        Document quarkusParent = parse(root.resolve("quarkus/pom.xml"));
        dependencies(quarkusParent, properties(shared, quarkusParent));
        poms.put(Path.of("quarkus"), pom(quarkusParent));
        hazelcastOldest = mainProps.get("hazelcast.version");
        hazelcastNewest = mainProps.get("hazelcast.latest.version");
        dependencies(main, mainProps);
        dependencies(parent, shared);
        dependencies(it, itProps);
        Element build = (Element) it.getDocumentElement().getElementsByTagName("build").item(0);
        sampleName = child(build, "finalName");
        demoPort = itProps.get("demo.http.port");
        poms.put(Path.of(""), pom(main));
        poms.put(Path.of("it-tests"), pom(it));
        Path servers = Path.of("it-tests", "servers");
        Document suite = parse(root.resolve(servers).resolve("pom.xml"));
        Map<String, String> suiteProps = properties(shared, suite);
        dependencies(suite, suiteProps);
        poms.put(servers, pom(suite));
        for (String module : modules(suite)) {
            Path folder = servers.resolve(module).normalize();
            if (!poms.containsKey(folder)) {
                Document server = parse(root.resolve(folder).resolve("pom.xml"));
                dependencies(server, properties(suiteProps, server));
                poms.put(folder, pom(server));
            }
        }
        Path hosts = Path.of("it-tests", "hosts");
        Document rig = parse(root.resolve(hosts).resolve("pom.xml"));
        dependencies(rig, properties(shared, rig));
        poms.put(hosts, pom(rig));
        Path examples = Path.of("it-tests", "examples");
        Document runs = parse(root.resolve(examples).resolve("pom.xml"));
        dependencies(runs, properties(shared, runs));
        poms.put(examples, pom(runs));
        Document simulator = parse(root.resolve("simulator/pom.xml"));
        dependencies(simulator, properties(shared, simulator));
        poms.put(Path.of("simulator"), pom(simulator));
    }

    /** @return whether {@code version} is within the Hazelcast versions the build supports */
    public boolean supportsHazelcast(String hazelcast) {
        return compare(hazelcast, hazelcastOldest) >= 0 && compare(hazelcast, hazelcastNewest) <= 0;
    }

    /** @return whether the pom of {@code module} (a folder relative to the root) has the profile */
    public boolean hasProfile(Path module, String profile) {
        return poms.containsKey(module) && poms.get(module).profiles().contains(profile);
    }

    /** @return whether the pom of {@code module} has a plugin execution with that id */
    public boolean hasExecution(Path module, String id) {
        return poms.containsKey(module) && poms.get(module).executions().contains(id);
    }

    public boolean isModule(Path module) {
        return poms.containsKey(module);
    }

    /** Compares dotted versions part by part, numerically where both parts are numbers. */
    static int compare(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "0";
            String q = i < y.length ? y[i] : "0";
            int c = p.matches("\\d+") && q.matches("\\d+") ? Long.compare(Long.parseLong(p), Long.parseLong(q)) : p.compareTo(q);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private void dependencies(Document pom, Map<String, String> props) {
        for (String tag : List.of("dependency", "plugin")) {
            NodeList list = pom.getElementsByTagName(tag);
            for (int i = 0; i < list.getLength(); i++) {
                Element d = (Element) list.item(i);
                String v = child(d, "version");
                String group = child(d, "groupId") == null && tag.equals("plugin") ? "org.apache.maven.plugins" : child(d, "groupId");
                if (v != null) {
                    dependencies.putIfAbsent(interpolate(group, props) + ":" + interpolate(child(d, "artifactId"), props),
                            interpolate(v, props));
                }
            }
        }
    }

    /** @return the folders of the modules {@code pom} aggregates, its profiles' included */
    private static List<String> modules(Document pom) {
        List<String> modules = new ArrayList<>();
        NodeList list = pom.getElementsByTagName("module");
        for (int i = 0; i < list.getLength(); i++) {
            modules.add(list.item(i).getTextContent().trim());
        }
        return modules;
    }

    private static Pom pom(Document pom) {
        List<String> profiles = new ArrayList<>();
        List<String> executions = new ArrayList<>();
        NodeList ids = pom.getElementsByTagName("id");
        for (int i = 0; i < ids.getLength(); i++) {
            Node parent = ids.item(i).getParentNode();
            String id = ids.item(i).getTextContent().trim();
            if (parent.getNodeName().equals("profile")) {
                profiles.add(id);
            } else if (parent.getNodeName().equals("execution")) {
                executions.add(id);
            }
        }
        return new Pom(profiles, executions);
    }

    /** @return the parent's properties, with those of {@code pom} over them */
    private static Map<String, String> properties(Map<String, String> parent, Document pom) {
        Map<String, String> props = new LinkedHashMap<>(parent);
        props.putAll(properties(pom));
        return props;
    }

    private static Map<String, String> properties(Document pom) {
        Map<String, String> props = new LinkedHashMap<>();
        Element root = pom.getDocumentElement();
        if (child(root, "version") != null) { // else the parent's
            props.put("project.version", child(root, "version"));
        }
        NodeList sections = root.getChildNodes();
        for (int i = 0; i < sections.getLength(); i++) {
            if (sections.item(i).getNodeName().equals("properties")) {
                NodeList entries = sections.item(i).getChildNodes();
                for (int j = 0; j < entries.getLength(); j++) {
                    if (entries.item(j) instanceof Element e) {
                        props.put(e.getTagName(), e.getTextContent().trim());
                    }
                }
            }
        }
        return props;
    }

    private static String interpolate(String text, Map<String, String> props) {
        if (text == null) {
            return null;
        }
        Matcher m = PROPERTY.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(props.getOrDefault(m.group(1), m.group())));
        }
        return m.appendTail(out).toString();
    }

    /** @return the text of the element's direct child {@code name}, or null */
    static String child(Element element, String name) {
        NodeList children = element.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return null;
    }

    private static Document parse(Path file) {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + file + ": " + e, e);
        }
    }
}

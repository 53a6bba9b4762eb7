package io.tollgate.readme;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.YamlClientConfigBuilder;
import com.hazelcast.config.InMemoryYamlConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import io.tollgate.RateLimited;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.InvalidConfigurationException;
import io.tollgate.internal.config.RuleDefaults;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.runtime.Binding;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The check of each kind of example. Each returns what it established, for the test's listing, and fails
 * with the example's place and what is wrong.
 */
final class BlockChecks {

    private static final Pattern JAR = Pattern.compile("(hazelcast|tollgate)-(\\d[\\w.]*?(?:-SNAPSHOT)?)\\.jar");
    private static final Pattern URL = Pattern.compile("https?://(127\\.0\\.0\\.1|localhost):(\\d+)(/[^\\s'\"]*)?");
    private static final Pattern FILE_NAME = Pattern.compile("[\\w.-]+\\.(sh|xml|yaml|yml|properties|options|args|asadmin|md|java)");

    private final Path root;
    private final ProjectFacts facts;
    private final List<Path> repositoryFiles;

    BlockChecks(Path root) {
        this.root = root;
        this.facts = new ProjectFacts(root);
        try (Stream<Path> files = Files.walk(root)) {
            repositoryFiles = files.filter(Files::isRegularFile).map(root::relativize)
                    .filter(p -> !p.startsWith(".git") && !p.toString().contains("target")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ProjectFacts facts() {
        return facts;
    }

    // ------------------------------------------------------------------ properties

    /** The block, read as a properties file, validates; @return the rules it defines */
    String validProperties(String where, String text, Collection<RuleDefaults> annotations) {
        try {
            TollgateConfig config = ConfigReader.read(settings(text), annotations);
            return "valid configuration: rules " + config.rules().keySet();
        } catch (InvalidConfigurationException e) {
            throw new AssertionError(where + ": the configuration a reader copies from here is invalid:\n" + e.getMessage());
        }
    }

    /** The block, read as a properties file, fails with exactly {@code message}. */
    String invalidProperties(String where, String text, Collection<RuleDefaults> annotations, String message) {
        try {
            ConfigReader.read(settings(text), annotations);
        } catch (InvalidConfigurationException e) {
            if (!e.getMessage().equals(message.strip())) {
                throw new AssertionError(where + ": the message the README prints differs from Tollgate's.\nREADME:\n"
                        + message.strip() + "\nTollgate:\n" + e.getMessage());
            }
            return "invalid configuration, failing with the message that follows it, word for word";
        }
        throw new AssertionError(where + ": marked invalid, but the configuration validates");
    }

    private static Settings settings(String text) {
        return new PropertiesSettings(text);
    }

    /** @return what the {@code @RateLimited} annotations of compiled examples say about rules, as Tollgate's extension reads them */
    static Collection<RuleDefaults> annotations(List<Class<?>> classes) {
        Map<String, RuleDefaults> rules = new LinkedHashMap<>();
        for (Class<?> type : classes) {
            RateLimited onType = type.getAnnotation(RateLimited.class);
            if (onType != null) {
                record(rules, onType, type, null, type.getName());
            }
            for (Method method : type.getDeclaredMethods()) {
                RateLimited onMethod = method.getAnnotation(RateLimited.class);
                if (onMethod != null) {
                    record(rules, onMethod, type, method, type.getName() + "." + method.getName());
                }
            }
        }
        return rules.values();
    }

    private static void record(Map<String, RuleDefaults> rules, RateLimited annotation, Class<?> type, Method method, String element) {
        for (String name : Binding.ruleNames(annotation, type, method)) {
            rules.computeIfAbsent(name, RuleDefaults::new)
                    .merge(element, annotation.rate(), annotation.burst(), annotation.key(), annotation.cost());
        }
    }

    /**
     * An inline property ({@code tollgate.rules.x.burst=4}) is a fragment: read alone, with a rate for each
     * rule it names that has none (the rest of a configuration), it validates.
     */
    String inlineProperty(String where, String text) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder completed = new StringBuilder(text).append('\n');
        List<String> rules = new ArrayList<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.equals(ConfigReader.RULES)) {
                for (String rule : properties.getProperty(name).split(",")) {
                    rules.add(rule.trim());
                }
            } else if (name.startsWith(ConfigReader.RULES + ".") && name.lastIndexOf('.') > ConfigReader.RULES.length()) {
                rules.add(name.substring(ConfigReader.RULES.length() + 1, name.lastIndexOf('.')));
            }
        }
        for (String rule : rules) {
            String p = ConfigReader.RULES + "." + rule + ".";
            if (Stream.of("rate", "limits", "tokens-per-second").noneMatch(a -> properties.containsKey(p + a))) {
                completed.append(p).append("rate=1000000\n");
            }
        }
        return validProperties(where, completed.toString(), List.of());
    }

    // ------------------------------------------------------------------ xml

    /** The block parses (a fragment of several elements too), and every Maven coordinate it shows is one the build supports. */
    String xml(String where, String text) {
        String source = text.strip().startsWith("<?xml") ? text : "<readme-fragment>" + text + "</readme-fragment>";
        Element document;
        try {
            document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new InputSource(new StringReader(source))).getDocumentElement();
        } catch (Exception e) {
            throw new AssertionError(where + ": not well-formed XML: " + e.getMessage(), e);
        }
        List<String> checked = new ArrayList<>();
        for (String tag : List.of("dependency", "plugin", "parent")) {
            NodeList elements = document.getElementsByTagName(tag);
            for (int i = 0; i < elements.getLength(); i++) {
                Element e = (Element) elements.item(i);
                checked.add(coordinates(where, ProjectFacts.child(e, "groupId"), ProjectFacts.child(e, "artifactId"),
                        ProjectFacts.child(e, "version")));
            }
        }
        return "well-formed XML" + (checked.isEmpty() ? "" : "; coordinates " + checked);
    }

    private String coordinates(String where, String group, String artifact, String version) {
        String ga = group + ":" + artifact;
        String gav = ga + ":" + version;
        if (group != null && group.equals(facts.groupId)) {
            if (!(artifact.equals(facts.artifactId) || artifact.equals(facts.quarkusArtifactId)) || !facts.version.equals(version)) {
                throw new AssertionError(where + ": " + gav + " is not this project (" + facts.groupId + ":" + facts.artifactId
                        + " or " + facts.quarkusArtifactId + ", " + facts.version + ")");
            }
        } else if ("io.quarkus".equals(group) && version == null && facts.dependencies.containsKey("io.quarkus:quarkus-bom")) {
            return ga + " (its version from io.quarkus:quarkus-bom " + facts.dependencies.get("io.quarkus:quarkus-bom") + ")";
        } else if (ga.equals("com.hazelcast:hazelcast")) {
            if (version == null || !facts.supportsHazelcast(version)) {
                throw new AssertionError(where + ": " + gav + " is outside the Hazelcast versions the build supports ("
                        + facts.hazelcastOldest + " to " + facts.hazelcastNewest + ")");
            }
        } else if (!facts.dependencies.containsKey(ga) || !facts.dependencies.get(ga).equals(version)) {
            throw new AssertionError(where + ": " + gav + " is not a dependency of this build at that version ("
                    + facts.dependencies.getOrDefault(ga, "not used") + ")");
        }
        return gav;
    }

    // ------------------------------------------------------------------ yaml

    /** The block parses as YAML; a Hazelcast member or client configuration also loads in Hazelcast, its factories with it. */
    String yaml(String where, String text) {
        List<Object> documents = new ArrayList<>();
        try {
            new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text).forEach(documents::add);
        } catch (RuntimeException e) {
            throw new AssertionError(where + ": not YAML: " + e.getMessage(), e);
        }
        List<String> checked = new ArrayList<>(List.of("YAML"));
        for (Object document : documents) {
            if (document instanceof Map<?, ?> map && map.containsKey("hazelcast")) {
                try {
                    factories(where, new InMemoryYamlConfig(text).getSerializationConfig().getDataSerializableFactoryClasses());
                } catch (RuntimeException e) {
                    throw new AssertionError(where + ": Hazelcast does not load this member configuration: " + e.getMessage(), e);
                }
                checked.add("a Hazelcast member configuration that Hazelcast loads");
            } else if (document instanceof Map<?, ?> map && map.containsKey("hazelcast-client")) {
                try {
                    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                    ClientConfig client = new YamlClientConfigBuilder(new ByteArrayInputStream(bytes)).build();
                    factories(where, client.getSerializationConfig().getDataSerializableFactoryClasses());
                } catch (RuntimeException e) {
                    throw new AssertionError(where + ": Hazelcast does not load this client configuration: " + e.getMessage(), e);
                }
                checked.add("a Hazelcast client configuration that Hazelcast loads");
            }
        }
        return String.join("; ", checked);
    }

    /** Each factory class exists, is a factory, and has the id the configuration gives it (where it declares one). */
    private static void factories(String where, Map<Integer, String> factories) {
        factories.forEach((id, className) -> {
            try {
                Class<?> factory = Class.forName(className);
                if (!DataSerializableFactory.class.isAssignableFrom(factory)) {
                    throw new AssertionError(where + ": " + className + " is not a DataSerializableFactory");
                }
                Field declared = factory.getField("FACTORY_ID");
                if (Modifier.isStatic(declared.getModifiers()) && declared.getInt(null) != id) {
                    throw new AssertionError(where + ": factory-id " + id + " is not " + className + "'s id " + declared.getInt(null));
                }
            } catch (ClassNotFoundException e) {
                throw new AssertionError(where + ": no class " + className);
            } catch (NoSuchFieldException | IllegalAccessException e) {
                // a factory without a public id constant: its id is what the configuration says
            }
        });
    }

    // ------------------------------------------------------------------ bash

    /**
     * The block is valid shell ({@code bash -n}); run from its Markdown file's folder (or where a {@code cd} in it
     * goes), every file of this repository it names exists there; jar names carry this project's version and a
     * supported Hazelcast version; Maven profiles and executions exist; the demo's URLs name its port.
     */
    String bash(String where, Path doc, String text) {
        return bashFrom(where, doc.getParent() == null ? Path.of("") : doc.getParent(), text);
    }

    /** As {@link #bash}, for a block run from the repository's root ({@code <!-- readme: repository-root -->}). */
    String bashFromTheRoot(String where, String text) {
        return bashFrom(where, Path.of(""), text);
    }

    private String bashFrom(String where, Path start, String text) {
        syntax(where, text);
        Path cwd = start;
        Path module = Path.of("");
        List<String> checked = new ArrayList<>();
        for (List<String> command : Shell.commands(text)) {
            if (command.size() == 2 && command.get(0).equals("cd")) {
                cwd = cwd.resolve(command.get(1)).normalize();
                checked.add("cd " + display(cwd));
                continue;
            }
            module = cwd;
            for (int i = 0; i < command.size(); i++) {
                String word = command.get(i);
                if (word.equals("-f") && i + 1 < command.size()) {
                    module = cwd.resolve(command.get(i + 1)).normalize();
                    if (!facts.isModule(module)) {
                        throw new AssertionError(where + ": -f " + command.get(i + 1) + " is not a module of this build");
                    }
                }
            }
            for (int i = 0; i < command.size(); i++) {
                checked.addAll(word(where, cwd, module, command.get(i), i == 0));
            }
        }
        return "valid shell" + (checked.isEmpty() ? "" : "; " + checked.stream().distinct().collect(Collectors.joining(", ")));
    }

    /**
     * A command the reader runs in their own project ({@code <!-- readme: your-project -->}): valid shell, and the jars
     * it names carry this project's version and a supported Hazelcast version; its paths are the reader's, not this
     * repository's.
     */
    String bashInTheReadersProject(String where, String text) {
        syntax(where, text);
        List<String> checked = new ArrayList<>();
        for (List<String> command : Shell.commands(text)) {
            for (String word : command) {
                Matcher jar = JAR.matcher(word);
                while (jar.find()) {
                    boolean ok = jar.group(1).equals("tollgate") ? jar.group(2).equals(facts.version) : facts.supportsHazelcast(jar.group(2));
                    if (!ok) {
                        throw new AssertionError(where + ": " + jar.group() + " is not this project's version or a supported Hazelcast");
                    }
                    checked.add(jar.group());
                }
            }
        }
        return "valid shell, run in the reader's own project (its paths are not this repository's)"
                + (checked.isEmpty() ? "" : "; " + checked);
    }

    private List<String> word(String where, Path cwd, Path module, String word, boolean command) {
        List<String> checked = new ArrayList<>();
        Matcher jar = JAR.matcher(word);
        while (jar.find()) {
            boolean ok = jar.group(1).equals("tollgate") ? jar.group(2).equals(facts.version) : facts.supportsHazelcast(jar.group(2));
            if (!ok) {
                throw new AssertionError(where + ": " + jar.group() + " is not " + (jar.group(1).equals("tollgate")
                        ? "this project's version " + facts.version
                        : "a Hazelcast version the build supports (" + facts.hazelcastOldest + " to " + facts.hazelcastNewest + ")"));
            }
            checked.add(jar.group());
        }
        Matcher url = URL.matcher(word);
        if (url.find()) {
            if (url.group(3) != null && url.group(3).startsWith("/" + facts.sampleName + "/") && !url.group(2).equals(facts.demoPort)) {
                throw new AssertionError(where + ": " + url.group() + " is the demo's application, which listens on port "
                        + facts.demoPort);
            }
            checked.add(url.group());
            return checked;
        }
        if (word.startsWith("-P")) {
            for (String profile : word.substring(2).split(",")) {
                if (!facts.hasProfile(module, profile)) {
                    throw new AssertionError(where + ": no profile " + profile + " in " + module.resolve("pom.xml"));
                }
                checked.add("profile " + profile);
            }
            return checked;
        }
        if (word.matches("[\\w-]+:[\\w-]+@[\\w-]+")) {
            String execution = word.substring(word.indexOf('@') + 1);
            if (!facts.hasExecution(module, execution)) {
                throw new AssertionError(where + ": no execution " + execution + " in " + module.resolve("pom.xml"));
            }
            checked.add("execution " + execution);
            return checked;
        }
        for (String part : word.replaceFirst("^-D[\\w.]+=", "").replaceFirst("^@", "").split(":")) {
            checked.addAll(path(where, cwd, part, command));
        }
        return checked;
    }

    /** @return the index of the first {@code target} folder in {@code path}, or -1 */
    private static int indexOfTarget(Path path) {
        for (int i = 0; i < path.getNameCount(); i++) {
            if (path.getName(i).toString().equals("target")) {
                return i;
            }
        }
        return -1;
    }

    private List<String> path(String where, Path cwd, String word, boolean command) {
        if (word.isEmpty() || word.startsWith("/") || word.startsWith("-") || word.contains("$") || word.contains("*")
                || word.contains("=") || word.contains("://")) {
            return List.of();
        }
        Path path = cwd.resolve(word).normalize();
        boolean relative = word.startsWith("./") || word.startsWith("../");
        int target = indexOfTarget(Path.of(word));
        if (target >= 0) { // what a build writes: not there in a clean clone, but its module must be
            Path module = target == 0 ? cwd : cwd.resolve(Path.of(word).subpath(0, target)).normalize();
            if (!Files.exists(root.resolve(module).resolve("pom.xml"))) {
                throw new AssertionError(where + ": " + word + " is the output of a build, but " + display(module) + " has no pom.xml");
            }
            return List.of(word + " built by " + display(module));
        }
        if (word.contains("/")) {
            Path first = cwd.resolve(Path.of(word).getName(0)).normalize();
            if (relative || Files.exists(root.resolve(first))) {
                if (!Files.exists(root.resolve(path))) {
                    throw new AssertionError(where + ": " + word + " does not exist in " + display(cwd));
                }
                if (command && !Files.isExecutable(root.resolve(path))) {
                    throw new AssertionError(where + ": " + word + " is not executable");
                }
                return List.of(display(path) + " exists");
            }
            return List.of();
        }
        if (FILE_NAME.matcher(word).matches() && !Files.exists(root.resolve(path))) {
            List<Path> elsewhere = repositoryFiles.stream().filter(p -> p.getFileName().toString().equals(word)).toList();
            if (!elsewhere.isEmpty()) {
                throw new AssertionError(where + ": " + word + " is not in " + display(cwd) + ", where the block runs, but in "
                        + elsewhere + "; start the block with a cd to where it runs");
            }
        } else if (Files.exists(root.resolve(path)) && FILE_NAME.matcher(word).matches()) {
            return List.of(display(path) + " exists");
        }
        return List.of();
    }

    private static String display(Path path) {
        return path.toString().isEmpty() ? "the repository root" : path.toString();
    }

    private static void syntax(String where, String text) {
        try {
            Process bash = new ProcessBuilder("bash", "-n").redirectErrorStream(true).start();
            bash.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            bash.getOutputStream().close();
            String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (bash.waitFor() != 0) {
                throw new AssertionError(where + ": not valid shell: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ text

    /** A file tree: the first word of every line that starts in the first column is a path of this repository. */
    String layout(String where, String text) {
        List<String> paths = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || Character.isWhitespace(line.charAt(0))) {
                continue;
            }
            String path = line.split("\\s+")[0];
            if (!Files.exists(root.resolve(path))) {
                throw new AssertionError(where + ": the layout names " + path + ", which does not exist");
            }
            paths.add(path);
        }
        if (!text.contains("io.tollgate.internal")) {
            return "every path exists: " + paths;
        }
        Set<String> named = new TreeSet<>();
        Matcher layer = Pattern.compile("(?m)^ {19}([a-z]+(?:, [a-z]+)*):").matcher(text);
        while (layer.find()) {
            named.addAll(List.of(layer.group(1).split(", ")));
        }
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(root.resolve("src/main/java/io/tollgate/internal"))) {
            dirs.filter(Files::isDirectory).forEach(dir -> packages.add(dir.getFileName().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!named.equals(packages)) {
            throw new AssertionError(where + ": the layout names the internal packages " + named + ", the code has " + packages);
        }
        return "every path exists: " + paths + "; the internal packages named are those of the code: " + packages;
    }

    /** An HTTP response: its syntax here; QuickStartIT compares it with what both servers answer. */
    static String http(String where, String text) {
        return http(where, text, "both servers by QuickStartIT");
    }

    /** An HTTP example's syntax, {@code comparedWith} naming the test that compares it with real responses. */
    static String http(String where, String text, String comparedWith) {
        try {
            HttpExample example = HttpExample.parse(text);
            return "an HTTP " + example.status() + " with headers " + example.headers().keySet()
                    + (example.body().isEmpty() ? "" : " and a JSON body") + "; compared with " + comparedWith;
        } catch (IllegalArgumentException e) {
            throw new AssertionError(where + ": not an HTTP response as the servers send it: " + e.getMessage(), e);
        }
    }
}

package io.tollgate.readme;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles Java examples as a reader who copies them would: in a package of their own
 * ({@value #PACKAGE}), with the imports an IDE would add (from {@link #IMPORTED_PACKAGES}, in that order;
 * where a name is in several, the first one that compiles), a {@code { ... }} body completed with a
 * plain return, and the smallest stubs for the names the example assumes: an empty class for an
 * unknown type ({@code Hit}), a field of the type its use requires for an unknown variable
 * ({@code tenantId} passed as a {@code String} is a {@code String}; {@code rateLimiter.tryAcquire(...)}
 * makes {@code rateLimiter} the API type that has {@code tryAcquire}). The example's own text is never
 * changed otherwise. An example is a compilation unit, else class members, else statements.
 */
public final class JavaSnippets {

    /** The package the examples are compiled in. */
    public static final String PACKAGE = "com.example";

    /** Where the imports come from, in order of preference. */
    public static final List<String> IMPORTED_PACKAGES = List.of("io.tollgate",
            "jakarta.enterprise.context", "jakarta.enterprise.inject", "jakarta.enterprise.event", "jakarta.inject",
            "jakarta.ws.rs", "jakarta.ws.rs.core", "jakarta.ws.rs.container", "jakarta.ws.rs.ext",
            "jakarta.interceptor", "jakarta.annotation", "jakarta.servlet", "jakarta.servlet.http", "jakarta.json",
            "org.eclipse.microprofile.config", "org.eclipse.microprofile.config.inject",
            "com.hazelcast.core", "com.hazelcast.config", "com.hazelcast.map",
            "java.util", "java.util.concurrent", "java.util.function", "java.time", "java.io", "java.net",
            "java.lang.reflect");

    private static final Pattern ELIDED_BODY = Pattern.compile("\\{\\s*\\.\\.\\.\\s*}");
    private static final Pattern ELIDED_LINE = Pattern.compile("(?m)^(\\s*)\\.\\.\\.\\s*$");
    private static final Pattern PACKAGE_LINE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;");
    private static final Pattern UNRESOLVED = Pattern.compile("symbol:\\s+(class|variable)\\s+(\\w+)");
    private static final String BODY_MARK = "readmeElidedBody";
    private static final String STUBS = "ReadmeStubs";
    private static final int ROUNDS = 16;

    /** One example: a name for messages and its text as the reader sees it. */
    public record Snippet(String name, String text) {
    }

    /** What was compiled: the sources as given to the compiler (stubs included) and where the classes are. */
    public record Result(Map<String, String> sources, List<String> stubs, Path classes, List<String> classNames) {

        /** @return the compiled classes, loaded by a new loader over the given one */
        public List<Class<?>> load(ClassLoader parent) {
            try {
                var loader = new java.net.URLClassLoader(new java.net.URL[] {classes.toUri().toURL()}, parent);
                List<Class<?>> loaded = new ArrayList<>();
                for (String name : classNames) {
                    loaded.add(Class.forName(name, false, loader));
                }
                return loaded;
            } catch (IOException | ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The examples could not be compiled; the message has the sources and the compiler's errors. */
    public static final class CompileError extends AssertionError {
        private static final long serialVersionUID = 1L;

        CompileError(String message) {
            super(message);
        }
    }

    private enum Shape { UNIT, MEMBERS, STATEMENTS }

    private final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    private final ClassLoader loader;
    private final String classPath;
    private final List<Snippet> snippets;
    private final List<String> prepared = new ArrayList<>();
    private final List<String> typeNames = new ArrayList<>();
    private final Map<String, List<String>> imports = new LinkedHashMap<>();
    private final Map<String, Integer> chosen = new LinkedHashMap<>();
    private final Set<String> stubClasses = new LinkedHashSet<>();
    private final Map<String, String> stubFields = new LinkedHashMap<>();

    private JavaSnippets(List<Snippet> snippets, String classPath, ClassLoader loader) {
        this.snippets = snippets;
        this.classPath = classPath;
        this.loader = loader;
    }

    /**
     * Compiles the examples together (one may use another's classes) into {@code classes}.
     *
     * @param classPath the compiler's class path (Tollgate and the APIs it is used with)
     * @param loader    a loader over the same class path, to find what a name may be imported from
     * @throws CompileError with the sources and the errors, if they do not compile
     */
    public static Result compile(List<Snippet> snippets, Path classes, String classPath, ClassLoader loader) {
        return new JavaSnippets(snippets, classPath, loader).compile(classes);
    }

    /** @return the test's own class path, as surefire and failsafe set it */
    public static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private Result compile(Path classes) {
        for (Snippet snippet : snippets) {
            String text = ELIDED_LINE.matcher(ELIDED_BODY.matcher(snippet.text()).replaceAll("{ " + BODY_MARK + "(); }"))
                    .replaceAll("$1/* ... */");
            Shape shape = shapeOf(text);
            int index = prepared.size();
            prepared.add(shape == Shape.UNIT ? text : wrap(shape, text, index));
            typeNames.add(shape == Shape.UNIT ? typeName(text, index) : "Snippet" + index);
        }
        for (int i = 0; i < prepared.size(); i++) {
            prepared.set(i, completeBodies(prepared.get(i)));
        }
        for (int round = 0; round < ROUNDS; round++) {
            Map<String, String> sources = sources();
            Attempt attempt = attempt(sources, classes, false);
            if (attempt.errors.isEmpty()) {
                attempt(sources, classes, true);
                return new Result(sources, stubList(), classes, classNames(sources));
            }
            if (!learn(attempt) && !nextAlternative()) {
                break;
            }
        }
        // the errors with the preferred imports, not with the last combination tried
        String errors = attempt(sources(), classes, false).errors.stream().map(JavaSnippets::describe)
                .collect(Collectors.joining("\n"));
        throw new CompileError("does not compile:\n" + errors + "\n\nas compiled:\n" + numbered(sources()));
    }

    // ------------------------------------------------------------------ shape and bodies

    private Shape shapeOf(String text) {
        for (Shape shape : Shape.values()) {
            String source = shape == Shape.UNIT ? text : wrap(shape, text, 0);
            if (parses(source)) {
                return shape;
            }
        }
        return Shape.UNIT; // the compiler's errors will say what is wrong
    }

    private static String wrap(Shape shape, String text, int index) {
        String name = "Snippet" + index;
        return shape == Shape.MEMBERS ? "public class " + name + " {\n" + text + "}\n"
                : "public class " + name + " {\n    void snippet() throws Exception {\n" + text + "    }\n}\n";
    }

    private boolean parses(String source) {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavacTask task = (JavacTask) compiler.getTask(null, null, diagnostics, List.of("-proc:none"), null,
                List.of(new Source("Parse.java", source)));
        try {
            task.parse();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return diagnostics.getDiagnostics().stream().noneMatch(d -> d.getKind() == Diagnostic.Kind.ERROR);
    }

    /** Replaces each elided body by a plain return of what a reader would return: nothing, 0, false, empty or null. */
    private String completeBodies(String source) {
        if (!source.contains(BODY_MARK)) {
            return source;
        }
        JavacTask task = (JavacTask) compiler.getTask(null, null, null, List.of("-proc:none"), null,
                List.of(new Source("Parse.java", source)));
        List<String> returns = new ArrayList<>();
        try {
            for (CompilationUnitTree unit : task.parse()) {
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitMethod(MethodTree method, Void unused) {
                        if (method.getBody() != null && method.getBody().toString().contains(BODY_MARK + "()")) {
                            returns.add(defaultReturn(method.getReturnType()));
                        }
                        return super.visitMethod(method, unused);
                    }
                }.scan(unit, null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String completed = source;
        for (String statement : returns) {
            completed = completed.replaceFirst(Pattern.quote(BODY_MARK + "();"), Matcher.quoteReplacement(statement));
        }
        return completed;
    }

    private static String defaultReturn(Tree type) {
        String name = type == null ? "void" : type.toString().replaceAll("<.*", "").trim();
        switch (name) {
            case "void":
                return "/* ... */";
            case "boolean":
                return "return false; /* ... */";
            case "byte", "short", "int", "long", "char", "float", "double":
                return "return 0; /* ... */";
            case "List", "Collection", "Iterable":
                return "return java.util.List.of(); /* ... */";
            case "Set":
                return "return java.util.Set.of(); /* ... */";
            case "Map":
                return "return java.util.Map.of(); /* ... */";
            case "Optional":
                return "return java.util.Optional.empty(); /* ... */";
            case "String":
                return "return \"\"; /* ... */";
            default:
                return "return null; /* ... */";
        }
    }

    // ------------------------------------------------------------------ compiling

    private Map<String, String> sources() {
        StringBuilder header = new StringBuilder();
        chosen.forEach((name, index) -> header.append("import ").append(imports.get(name).get(index)).append(";\n"));
        if (!stubFields.isEmpty()) {
            header.append("import static ").append(PACKAGE).append('.').append(STUBS).append(".*;\n");
        }
        Map<String, String> sources = new LinkedHashMap<>();
        for (int i = 0; i < prepared.size(); i++) {
            String text = prepared.get(i);
            Matcher pkg = PACKAGE_LINE.matcher(text);
            String source = pkg.find() ? text.substring(0, pkg.end()) + "\n" + header + text.substring(pkg.end())
                    : "package " + PACKAGE + ";\n\n" + header + "\n" + text;
            String pkgName = pkg.find(0) ? pkg.group(1) : PACKAGE;
            sources.put(pkgName.replace('.', '/') + "/" + typeNames.get(i) + ".java", source);
        }
        for (String stub : stubClasses) {
            sources.put(PACKAGE.replace('.', '/') + "/" + stub + ".java",
                    "package " + PACKAGE + ";\n\n/** Stub: a name the example assumes. */\npublic class " + stub + " {\n}\n");
        }
        if (!stubFields.isEmpty()) {
            StringBuilder fields = new StringBuilder("package " + PACKAGE + ";\n\n/** Stubs: names the examples assume. */\n"
                    + "public final class " + STUBS + " {\n");
            stubFields.forEach((name, type) -> fields.append("    public static ").append(type).append(' ').append(name).append(";\n"));
            sources.put(PACKAGE.replace('.', '/') + "/" + STUBS + ".java", fields.append("}\n").toString());
        }
        return sources;
    }

    /** @return the name of the unit's public top-level type (else its first type) */
    private String typeName(String source, int index) {
        JavacTask task = (JavacTask) compiler.getTask(null, null, null, List.of("-proc:none"), null,
                List.of(new Source("Parse.java", source)));
        String first = null;
        try {
            for (CompilationUnitTree unit : task.parse()) {
                for (Tree type : unit.getTypeDecls()) {
                    if (type instanceof ClassTree declared) {
                        if (declared.getModifiers().getFlags().contains(Modifier.PUBLIC)) {
                            return declared.getSimpleName().toString();
                        }
                        first = first == null ? declared.getSimpleName().toString() : first;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return first == null ? "Snippet" + index : first;
    }

    private static final class Attempt {
        final List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
        final List<CompilationUnitTree> units = new ArrayList<>();
        Trees trees;
        JavacTask task;
    }

    private Attempt attempt(Map<String, String> sources, Path classes, boolean generate) {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> files = new ArrayList<>();
        sources.forEach((path, text) -> files.add(new Source(path, text)));
        Attempt attempt = new Attempt();
        try (StandardJavaFileManager fileManager = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            Files.createDirectories(classes);
            List<String> options = List.of("-proc:none", "-classpath", classPath, "-d", classes.toString(), "-Xlint:none",
                    "-nowarn", "-encoding", "UTF-8");
            JavacTask task = (JavacTask) compiler.getTask(null, fileManager, diagnostics, options, null, files);
            attempt.task = task;
            attempt.trees = Trees.instance(task);
            task.parse().forEach(attempt.units::add);
            task.analyze();
            if (generate) {
                task.generate();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                attempt.errors.add(d);
            }
        }
        if (generate && !attempt.errors.isEmpty()) {
            throw new CompileError("does not compile:\n" + attempt.errors.stream().map(JavaSnippets::describe)
                    .collect(Collectors.joining("\n")));
        }
        return attempt;
    }

    // ------------------------------------------------------------------ learning from errors

    /** @return whether this attempt taught an import or a stub not known before */
    private boolean learn(Attempt attempt) {
        boolean learned = false;
        Set<String> variables = new LinkedHashSet<>();
        for (Diagnostic<? extends JavaFileObject> error : attempt.errors) {
            Matcher symbol = UNRESOLVED.matcher(error.getMessage(Locale.ROOT));
            if (!symbol.find()) {
                continue;
            }
            String name = symbol.group(2);
            boolean typeLike = symbol.group(1).equals("class") || Character.isUpperCase(name.charAt(0));
            if (typeLike && !imports.containsKey(name) && !stubClasses.contains(name)) {
                List<String> candidates = new ArrayList<>();
                for (String pkg : IMPORTED_PACKAGES) {
                    if (exists(pkg + "." + name)) {
                        candidates.add(pkg + "." + name);
                    }
                }
                if (!candidates.isEmpty()) {
                    imports.put(name, candidates);
                    chosen.put(name, 0);
                    learned = true;
                } else if (symbol.group(1).equals("class")) {
                    stubClasses.add(name);
                    learned = true;
                } else {
                    variables.add(name);
                }
            } else if (!typeLike && !stubFields.containsKey(name)) {
                variables.add(name);
            }
        }
        for (String variable : variables) {
            String type = inferType(attempt, variable);
            if (type != null) {
                stubFields.put(variable, type);
                learned = true;
            }
        }
        return learned;
    }

    /** Tries the next package for a name found in several; @return false when every combination was tried */
    private boolean nextAlternative() {
        for (Map.Entry<String, Integer> choice : chosen.entrySet()) {
            int next = choice.getValue() + 1;
            if (next < imports.get(choice.getKey()).size()) {
                choice.setValue(next);
                return true;
            }
            choice.setValue(0);
        }
        return false;
    }

    private boolean exists(String className) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** @return the type the uses of {@code name} require, or null if none tells yet */
    private String inferType(Attempt attempt, String name) {
        List<String> found = new ArrayList<>();
        for (CompilationUnitTree unit : attempt.units) {
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                    if (found.isEmpty() && identifier.getName().contentEquals(name)) {
                        String type = requiredType(attempt, getCurrentPath());
                        if (type != null) {
                            found.add(type);
                        }
                    }
                    return super.visitIdentifier(identifier, unused);
                }
            }.scan(unit, null);
        }
        return found.isEmpty() ? null : found.get(0);
    }

    private String requiredType(Attempt attempt, TreePath path) {
        Tree self = path.getLeaf();
        TreePath parentPath = path.getParentPath();
        Tree parent = parentPath.getLeaf();
        if (parent instanceof MethodInvocationTree call && call.getArguments().contains(self)) {
            return parameterType(attempt, parentPath, call, call.getArguments().indexOf(self));
        }
        if (parent instanceof MemberSelectTree select && select.getExpression() == self
                && parentPath.getParentPath().getLeaf() instanceof MethodInvocationTree call) {
            return receiverType(attempt, select.getIdentifier().toString(), call.getArguments().size());
        }
        if (parent instanceof ReturnTree) {
            for (TreePath p = parentPath; p != null; p = p.getParentPath()) {
                if (p.getLeaf() instanceof MethodTree method) {
                    return typeOf(attempt, new TreePath(p, method.getReturnType()));
                }
            }
        }
        if (parent instanceof VariableTree variable && variable.getInitializer() == self) {
            return typeOf(attempt, new TreePath(parentPath, variable.getType()));
        }
        if (parent instanceof AssignmentTree assignment && assignment.getExpression() == self) {
            return typeOf(attempt, new TreePath(parentPath, assignment.getVariable()));
        }
        return null;
    }

    private static String typeOf(Attempt attempt, TreePath path) {
        TypeMirror type = attempt.trees.getTypeMirror(path);
        return type == null || type.getKind() == TypeKind.ERROR ? null : type.toString();
    }

    private static String parameterType(Attempt attempt, TreePath callPath, MethodInvocationTree call, int index) {
        ExpressionTree select = call.getMethodSelect();
        if (!(select instanceof MemberSelectTree member)) {
            return null;
        }
        TypeMirror receiver = attempt.trees.getTypeMirror(new TreePath(new TreePath(callPath, select), member.getExpression()));
        if (!(receiver instanceof DeclaredType declared) || receiver.getKind() == TypeKind.ERROR) {
            return null;
        }
        for (Element e : attempt.task.getElements().getAllMembers((TypeElement) declared.asElement())) {
            if (e instanceof ExecutableElement method && method.getSimpleName().contentEquals(member.getIdentifier())
                    && method.getParameters().size() == call.getArguments().size()) {
                return method.getParameters().get(index).asType().toString();
            }
        }
        return null;
    }

    /** @return the first type of the imported packages with an instance method {@code method} of that arity */
    private static String receiverType(Attempt attempt, String method, int arity) {
        for (String pkg : IMPORTED_PACKAGES) {
            PackageElement element = attempt.task.getElements().getPackageElement(pkg);
            if (element == null) {
                continue;
            }
            for (Element type : element.getEnclosedElements()) {
                if (!type.getModifiers().contains(Modifier.PUBLIC)
                        || (type.getKind() != ElementKind.CLASS && type.getKind() != ElementKind.INTERFACE)) {
                    continue;
                }
                for (Element member : type.getEnclosedElements()) {
                    if (member instanceof ExecutableElement m && m.getSimpleName().contentEquals(method)
                            && !m.getModifiers().contains(Modifier.STATIC) && m.getParameters().size() == arity) {
                        return ((TypeElement) type).getQualifiedName().toString();
                    }
                }
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ reporting

    private List<String> stubList() {
        List<String> stubs = new ArrayList<>();
        stubClasses.forEach(name -> stubs.add("class " + name));
        stubFields.forEach((name, type) -> stubs.add(type + " " + name));
        return stubs;
    }

    private static List<String> classNames(Map<String, String> sources) {
        List<String> names = new ArrayList<>();
        for (String path : sources.keySet()) {
            names.add(path.substring(0, path.length() - ".java".length()).replace('/', '.'));
        }
        return names;
    }

    static String describe(Diagnostic<? extends JavaFileObject> d) {
        String file = d.getSource() == null ? "" : d.getSource().getName() + ":";
        return file + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT);
    }

    private static String numbered(Map<String, String> sources) {
        StringBuilder out = new StringBuilder();
        sources.forEach((path, text) -> {
            out.append("--- ").append(path).append('\n');
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                out.append(String.format("%3d  %s%n", i + 1, lines[i]));
            }
        });
        return out.toString();
    }

    /** A source held in memory. */
    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String path, String text) {
            super(URI.create("string:///" + path), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }
}

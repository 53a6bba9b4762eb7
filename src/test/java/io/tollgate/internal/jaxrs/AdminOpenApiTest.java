package io.tollgate.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import java.io.IOException;
import java.io.Reader;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The admin resource's OpenAPI description ({@value #SPEC}) parses, and describes exactly the operations of
 * {@link RateLimitAdminResource}: each path and method, each path, query and header parameter (with its default), the
 * key as the body of a {@code POST}, and no operation or parameter the resource does not have.
 */
class AdminOpenApiTest {

    static final String SPEC = "docs/reference/admin-openapi.yaml";

    /** One operation: its parameters as {@code in:name} (with {@code =default} if it has one), whether it takes a body, its id. */
    record Operation(Set<String> parameters, boolean body, String operationId) {
    }

    @Test
    void theDescriptionIsOpenApi3() throws IOException {
        Map<String, Object> spec = spec();
        assertThat(String.valueOf(spec.get("openapi"))).startsWith("3.");
        assertThat(spec).containsKeys("info", "paths", "components");
    }

    @Test
    void theDescriptionHasExactlyTheOperationsOfTheResource() throws IOException {
        assertThat(described()).isEqualTo(implemented());
    }

    /** @return the resource's operations, by {@code METHOD /path}, as its JAX-RS annotations declare them */
    static Map<String, Operation> implemented() {
        Map<String, Operation> operations = new TreeMap<>();
        String base = RateLimitAdminResource.class.getAnnotation(Path.class).value();
        for (Method method : RateLimitAdminResource.class.getDeclaredMethods()) {
            String http = httpMethod(method);
            if (http == null || !Modifier.isPublic(method.getModifiers())) {
                continue;
            }
            Set<String> parameters = new TreeSet<>();
            boolean body = false;
            for (Parameter parameter : method.getParameters()) {
                PathParam path = parameter.getAnnotation(PathParam.class);
                QueryParam query = parameter.getAnnotation(QueryParam.class);
                DefaultValue given = parameter.getAnnotation(DefaultValue.class);
                if (path != null) {
                    parameters.add("path:" + path.value());
                } else if (query != null) {
                    parameters.add("query:" + query.value() + (given == null ? "" : "=" + given.value()));
                } else if (parameter.getAnnotation(Context.class) == null) {
                    body = true;
                }
            }
            if (http.equals("POST")) {
                parameters.add("header:" + RateLimitAdminResource.REQUESTED_BY);
            }
            Path path = method.getAnnotation(Path.class);
            operations.put(http + " /" + base + (path == null ? "" : "/" + path.value()), new Operation(parameters, body, method.getName()));
        }
        assertThat(operations).as("the resource's operations").hasSizeGreaterThanOrEqualTo(6);
        return operations;
    }

    /** @return the description's operations, by {@code METHOD /path}, their parameters' references resolved */
    @SuppressWarnings("unchecked")
    static Map<String, Operation> described() throws IOException {
        Map<String, Object> spec = spec();
        Map<String, Object> paths = (Map<String, Object>) spec.get("paths");
        Map<String, Operation> operations = new TreeMap<>();
        paths.forEach((path, item) -> ((Map<String, Object>) item).forEach((method, value) -> {
            Map<String, Object> operation = (Map<String, Object>) value;
            Set<String> parameters = new TreeSet<>();
            for (Object entry : (List<Object>) operation.getOrDefault("parameters", List.of())) {
                Map<String, Object> parameter = resolve(spec, (Map<String, Object>) entry);
                Map<String, Object> schema = (Map<String, Object>) parameter.getOrDefault("schema", Map.of());
                parameters.add(parameter.get("in") + ":" + parameter.get("name")
                        + (schema.containsKey("default") ? "=" + schema.get("default") : ""));
            }
            operations.put(method.toUpperCase(Locale.ROOT) + " " + path,
                    new Operation(parameters, operation.containsKey("requestBody"), String.valueOf(operation.get("operationId"))));
        }));
        return operations;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> resolve(Map<String, Object> spec, Map<String, Object> node) {
        Object ref = node.get("$ref");
        if (ref == null) {
            return node;
        }
        Object target = spec;
        for (String step : ref.toString().substring(2).split("/")) {
            target = ((Map<String, Object>) target).get(step);
        }
        assertThat(target).as(ref + " resolves").isNotNull();
        return resolve(spec, (Map<String, Object>) target);
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value();
            }
        }
        return null;
    }

    private static Map<String, Object> spec() throws IOException {
        java.nio.file.Path file = java.nio.file.Path.of(System.getProperty("basedir", "."), SPEC);
        try (Reader in = Files.newBufferedReader(file)) {
            return new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        }
    }
}

package io.tollgate.testing;

import com.hazelcast.core.HazelcastInstance;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.servlet.ServletHandler;
import org.glassfish.grizzly.servlet.WebappContext;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * One application on a real in-JVM Jakarta EE stack: Weld (CDI) with Tollgate's extension, Jersey
 * as a servlet on Grizzly (JAX-RS) on 127.0.0.1, SmallRye Config and SmallRye JWT. Each test class
 * starts the application it needs with its own configuration; {@link #close()} stops everything.
 */
public final class TestApp implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private final WeldContainer cdi;
    private final HttpServer http;
    private final WebappContext webapp;
    private final URI base;

    private TestApp(WeldContainer cdi, HttpServer http, WebappContext webapp, URI base) {
        this.cdi = cdi;
        this.http = http;
        this.webapp = webapp;
        this.base = base;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds and starts an application. */
    public static final class Builder {
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<Class<?>> beans = new ArrayList<>();
        private final List<Class<?>> resources = new ArrayList<>();
        private final List<Object> resourceInstances = new ArrayList<>();
        private HazelcastInstance hazelcast;
        private final Map<String, Class<? extends jakarta.servlet.http.HttpServlet>> servlets = new LinkedHashMap<>();

        /** Sets a MicroProfile Config property; {@code null} removes one set before. */
        public Builder property(String name, String value) {
            if (value == null) {
                properties.remove(name);
            } else {
                properties.put(name, value);
            }
            return this;
        }

        public Builder properties(Map<String, String> values) {
            properties.putAll(values);
            return this;
        }

        /** Adds CDI bean classes (JAX-RS resources among them are CDI-managed). */
        public Builder beans(Class<?>... classes) {
            beans.addAll(List.of(classes));
            return this;
        }

        /** Adds JAX-RS resources that are not CDI beans. */
        public Builder resources(Class<?>... classes) {
            resources.addAll(List.of(classes));
            return this;
        }

        /**
         * Adds JAX-RS resources the application makes itself, as {@code Application.getSingletons()} returns them:
         * neither CDI beans nor made through CDI, so no interceptor runs on their methods.
         */
        public Builder resourceInstances(Object... instances) {
            resourceInstances.addAll(List.of(instances));
            return this;
        }

        /** Adds a plain servlet (a CDI-injected instance of {@code type}) at {@code path}, beside JAX-RS. */
        public Builder servlet(String path, Class<? extends jakarta.servlet.http.HttpServlet> type) {
            servlets.put(path, type);
            beans.add(type);
            return this;
        }

        /** Makes the application hand Tollgate this instance through a {@code @TollgateHazelcast} producer. */
        public Builder hazelcast(HazelcastInstance instance) {
            this.hazelcast = instance;
            return this;
        }

        /** Starts the CDI container and the HTTP server; a deployment failure is thrown as is. */
        public TestApp start() throws Exception {
            TestConfigSource.PROPERTIES.clear();
            TestConfigSource.PROPERTIES.putAll(Tokens.verification());
            // generous on a loaded 2-core machine; the tests of the timeout itself set their own
            TestConfigSource.PROPERTIES.put("tollgate.store.timeout", "10s");
            TestConfigSource.PROPERTIES.putAll(properties);
            resetConfig();
            // Discovery finds the libraries' bean archives (Jersey's request scope among them); the test
            // classes have no beans.xml, so only the classes named here become beans of this application.
            Weld weld = new Weld()
                    .addBeanClasses(io.smallrye.jwt.config.JWTAuthContextInfoProvider.class,
                            io.smallrye.jwt.auth.principal.DefaultJWTParser.class,
                            io.smallrye.jwt.auth.cdi.JWTCallerPrincipalFactoryProducer.class,
                            io.smallrye.jwt.auth.cdi.PrincipalProducer.class,
                            io.smallrye.jwt.auth.cdi.CommonJwtProducer.class,
                            io.smallrye.jwt.auth.cdi.ClaimValueProducer.class,
                            io.smallrye.jwt.auth.cdi.JsonValueProducer.class,
                            io.smallrye.jwt.auth.cdi.RawClaimTypeProducer.class)
                    .addBeanClasses(TestServletRequests.class)
                    .addBeanClasses(beans.toArray(new Class<?>[0]));
            TestHazelcastProducer.instance = hazelcast;
            if (hazelcast != null) {
                weld.addBeanClass(TestHazelcastProducer.class);
            }
            WeldContainer cdi = weld.initialize();
            ResourceConfig jaxrs = new ResourceConfig().packages("io.tollgate.internal.jaxrs").register(TestAuthFilter.class);
            beans.stream().filter(TestApp::isResource).forEach(jaxrs::register);
            resources.forEach(jaxrs::register);
            resourceInstances.forEach(jaxrs::register);
            HttpServer http = new HttpServer();
            NetworkListener listener = new NetworkListener("tollgate-test", "127.0.0.1", 0);
            listener.getTransport().setWorkerThreadPoolConfig(ThreadPoolConfig.defaultConfig().copy()
                    .setPoolName("tollgate-test-worker").setCorePoolSize(8).setMaxPoolSize(32));
            // room for the hostile-input tests' long values (Grizzly's default is 8 KB of request head)
            listener.setMaxHttpHeaderSize(256 * 1024);
            http.addListener(listener);
            Throwable[] initFailure = new Throwable[1];
            ServletContainer servlet = new ServletContainer(jaxrs) {
                @Override
                public void init() throws ServletException {
                    try {
                        super.init();
                    } catch (RuntimeException | ServletException | Error e) {
                        initFailure[0] = e;
                        throw e;
                    }
                }
            };
            WebappContext webapp = new WebappContext("tollgate-test", "");
            webapp.addFilter("requests", TestServletRequests.filter()).addMappingForUrlPatterns(null, "/*");
            for (Map.Entry<String, Class<? extends jakarta.servlet.http.HttpServlet>> plain : servlets.entrySet()) {
                String name = plain.getValue().getSimpleName();
                webapp.addServlet(name, cdi.select(plain.getValue()).get()).addMapping(plain.getKey());
                webapp.addFilter("context-" + name, TestServletRequests.requestContext()).addMappingForServletNames(null, name);
            }
            webapp.addServlet("jaxrs", servlet).addMapping("/*");
            try {
                webapp.deploy(http);
                if (initFailure[0] != null) {
                    throw new IllegalStateException("the JAX-RS application failed to start", initFailure[0]);
                }
                ClassLoader loader = Thread.currentThread().getContextClassLoader();
                for (var handler : http.getServerConfiguration().getHttpHandlers().keySet()) {
                    if (handler instanceof ServletHandler) {
                        ((ServletHandler) handler).setClassLoader(loader);
                    }
                }
                http.start();
            } catch (Exception | Error e) {
                webapp.undeploy();
                http.shutdownNow();
                cdi.shutdown();
                throw e;
            }
            return new TestApp(cdi, http, webapp, URI.create("http://127.0.0.1:" + http.getListener("tollgate-test").getPort() + "/"));
        }
    }

    /** A JAX-RS resource: {@code @Path} on the class, or on an interface it implements (as generated APIs have it). */
    private static boolean isResource(Class<?> type) {
        if (type.isAnnotationPresent(jakarta.ws.rs.Path.class)) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (implemented.isAnnotationPresent(jakarta.ws.rs.Path.class)) {
                return true;
            }
        }
        return false;
    }

    /** Forgets SmallRye Config's cached configuration, so the next application reads the test's properties. */
    static void resetConfig() {
        ConfigProviderResolver.instance().releaseConfig(ConfigProvider.getConfig());
    }

    public URI base() {
        return base;
    }

    /** @return a CDI bean of this application */
    public <T> T bean(Class<T> type) {
        return cdi.select(type).get();
    }

    public HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        return send("GET", path, headers);
    }

    public HttpResponse<String> post(String path, String... headers) throws IOException, InterruptedException {
        return send("POST", path, headers);
    }

    /** @param headers alternating names and values */
    public HttpResponse<String> send(String method, String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        try {
            webapp.undeploy();
            http.shutdownNow();
        } finally {
            cdi.shutdown();
            TestHazelcastProducer.instance = null;
            resetConfig();
        }
    }
}

package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.payara.PayaraMicroProcess;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Redeploying leaves no class loader behind: the sample application is deployed, used (a rule on a resource
 * method, a path rule, a CDI service, the servlet) and undeployed {@value #REDEPLOYS} times on one server; then,
 * after a full GC ({@code jcmd <pid> GC.run}, then {@code GC.class_histogram}), no more of the server's
 * application class loaders live than with the application deployed once. The count after {@value #HALF}
 * undeployments is printed too: it shows how fast what stays grows. Open Liberty: node-a, through Arquillian's
 * {@code Deployer}, and so WildFly (its loaders are JBoss Modules' {@code ModuleClassLoader}, as are those of
 * its own modules, which stay loaded). Payara Micro: a {@link PayaraMicroProcess} (the adapter starts a JVM per deployment),
 * through Payara Micro's runtime API. On Liberty every GC clears soft references (arquillian.xml): its log
 * buffer keeps recent log records softly, with their parameters, among them an application's classes (RESTEasy's
 * "Deploying" message), which would keep a loader or two until memory runs short; that is no leak, and not
 * what this test counts.
 */
@ExtendWith(ArquillianExtension.class)
@DisabledIfSystemProperty(named = "it.server", matches = "quarkus",
        disabledReason = "a redeploy into a running server: a Quarkus application is one process, stopped and started, never redeployed")
class RedeployIT {

    private static final int REDEPLOYS = 10;
    private static final int HALF = REDEPLOYS / 2;
    private static final String APP = "redeployed";
    /**
     * Full GCs tried, a second apart, before what stays is counted as staying: an undeployed application can
     * be held until a finalizer has run (Hazelcast's single-thread executors are finalizable).
     */
    private static final int GC_ATTEMPTS = 60;
    private static final Predicate<String> TOLLGATE = n -> n.startsWith("io.tollgate.");
    private static final int WARM_UP_REQUESTS = 32;

    @Deployment(name = APP, managed = false, testable = false)
    static WebArchive deployment() {
        return Deployments.contract(APP);
    }

    @ArquillianResource
    Deployer deployer;

    /** Something done to the server, which may fail. */
    private interface Step {
        void run() throws Exception;
    }

    /** The server under test, as this test drives it. */
    private interface Server extends AutoCloseable {
        void deploy() throws Exception;

        void undeploy() throws Exception;

        URL base() throws Exception;

        long pid();

        /** The class of the server's class loader of a WAR. */
        String loaderClass();

        @Override
        void close();
    }

    @Test
    void tenRedeploysLeaveNoClassLoaderBehind() throws Exception {
        try (Server server = Deployments.isLiberty() ? liberty() : Deployments.isWildfly() ? wildfly() : payara()) {
            String loader = server.loaderClass();
            ClassHistogram before = ClassHistogram.afterFullGc(server.pid());
            ClassHistogram first = null;
            ClassHistogram half = null;
            for (int i = 1; i <= REDEPLOYS; i++) {
                server.deploy();
                try {
                    use(server.base());
                    if (i == 1) {
                        first = ClassHistogram.afterFullGc(server.pid());
                    }
                } finally {
                    server.undeploy();
                }
                if (i == HALF) {
                    half = ClassHistogram.afterFullGc(server.pid());
                }
            }
            long allowed = first.instances(loader);
            ClassHistogram after = ClassHistogram.afterFullGc(server.pid());
            long lingering = after.instances(loader);
            int attempts = 1;
            for (; attempts < GC_ATTEMPTS && after.instances(loader) > allowed; attempts++) {
                Thread.sleep(1000); // a loader may wait for a cleanup thread; each attempt runs a full GC again
                after = ClassHistogram.afterFullGc(server.pid());
            }
            if (attempts > 1) {
                System.out.printf("[it] %s: right after the last undeployment %d %s instances, %d after %d full GCs a second apart%n",
                        Deployments.SERVER, lingering, loader, after.instances(loader), attempts);
            }
            System.out.printf("[it] %s: %s instances before: %d, with the application deployed once: %d, after %d "
                            + "undeployments: %d, after %d: %d; Tollgate classes with live instances: %d, %d, %d, %d%n",
                    Deployments.SERVER, loader, before.instances(loader), allowed, HALF, half.instances(loader), REDEPLOYS,
                    after.instances(loader), before.copies(TOLLGATE), first.copies(TOLLGATE), half.copies(TOLLGATE),
                    after.copies(TOLLGATE));
            assertTrue(after.instances(loader) <= allowed, loader + " instances after " + REDEPLOYS + " undeployments: "
                    + after.instances(loader) + ", with the application deployed once: " + allowed + " (before: "
                    + before.instances(loader) + ", after " + HALF + " undeployments: " + half.instances(loader) + ")");
        }
    }

    /**
     * Requests that go through the filter, a path rule, the interceptor and the servlet (on a rule for another
     * tier), each with buckets of its own: the buckets in Payara's Data Grid outlive a deployment.
     */
    private static void use(URL base) {
        String key = "key-" + UUID.randomUUID();
        for (String path : new String[] {"api/search?q=tea", "api/items/1", "api/reports/" + key, "quotes/gold", "api/status"}) {
            HttpResponse<String> response = get(base, path, "X-Api-Key", key, "X-Tier", "bronze");
            assertEquals(200, response.statusCode(), describe(response));
        }
    }

    /** Open Liberty's node-a (started by Arquillian for the suite). */
    private Server liberty() {
        return nodeA(System.getProperty("liberty.http.a"), () -> ClassHistogram.libertyPid("node-a"),
                "com.ibm.ws.classloading.internal.AppClassLoader", () -> { });
    }

    /**
     * WildFly's node-a (started by Arquillian for the suite). Every module of WildFly has a class loader of the same
     * class as a deployment's, loaded once and kept: their number only grows by an application that stays.
     */
    private Server wildfly() throws Exception {
        String port = System.getProperty("wildfly.http.a");
        URL welcome = new URL("http://127.0.0.1:" + port + "/");
        return nodeA(port, () -> ClassHistogram.wildflyPid("node-a"), "org.jboss.modules.ModuleClassLoader",
                () -> startWorkerThreads(welcome));
    }

    /**
     * Has WildFly's request threads started, and idle, before each deployment, by requests for its welcome page,
     * {@value #WARM_UP_REQUESTS} at a time. A thread of its worker (JBoss Threads' {@code EnhancedQueueExecutor})
     * keeps the request it was started for as long as it lives ({@code ThreadBody.run()} holds its initial task in a
     * local variable while it waits for the next), and the worker starts a thread for a request whenever none is
     * idle at that moment (threads above its core count end when they have been idle for a while): a thread started
     * for a request to the application would keep that undeployed application's class loader. That is bounded by the
     * worker's threads and none of Tollgate's doing.
     */
    private static void startWorkerThreads(URL welcome) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> requests = new ArrayList<>();
        for (int i = 0; i < WARM_UP_REQUESTS; i++) {
            requests.add(Http.CLIENT.sendAsync(HttpRequest.newBuilder(welcome.toURI()).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> request : requests) {
            request.get(60, TimeUnit.SECONDS);
        }
    }

    /** node-a of the suite, deployed to through Arquillian's {@code Deployer}. */
    private Server nodeA(String port, LongSupplier pid, String loader, Step beforeDeploy) {
        return new Server() {
            @Override
            public void deploy() throws Exception {
                beforeDeploy.run();
                deployer.deploy(APP);
            }

            @Override
            public void undeploy() {
                deployer.undeploy(APP);
            }

            @Override
            public URL base() throws Exception {
                return new URL("http://127.0.0.1:" + port + "/" + APP + "/");
            }

            @Override
            public long pid() {
                return pid.getAsLong();
            }

            @Override
            public String loaderClass() {
                return loader;
            }

            @Override
            public void close() {
            }
        };
    }

    /** A Payara Micro of its own (one member), stopped by {@link Server#close()}. */
    private static Server payara() throws IOException {
        Path dir = Files.createDirectories(Path.of(System.getProperty("payara.tmpdir"), "redeploy"));
        Path war = dir.resolve(APP + ".war");
        deployment().as(ZipExporter.class).exportTo(war.toFile(), true);
        String port = System.getProperty("payara.http.a");
        PayaraMicroProcess process = PayaraMicroProcess.start("redeploy",
                List.of("--clustername", System.getProperty("it.cluster.name") + "-redeploy", "--port", port));
        try {
            process.awaitReady();
        } catch (RuntimeException | Error e) {
            process.close();
            throw e;
        }
        return new Server() {
            @Override
            public void deploy() {
                process.deploy(APP, war);
            }

            @Override
            public void undeploy() {
                process.undeploy(APP);
            }

            @Override
            public URL base() throws Exception {
                return new URL("http://127.0.0.1:" + port + "/" + APP + "/");
            }

            @Override
            public long pid() {
                return process.pid();
            }

            @Override
            public String loaderClass() {
                return "org.glassfish.web.loader.WebappClassLoader";
            }

            @Override
            public void close() {
                process.close();
            }
        };
    }
}

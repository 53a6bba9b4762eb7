package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tollgate.sample.QuoteService;
import io.tollgate.sample.QuotesResource;
import io.tollgate.sample.SampleApplication;
import io.tollgate.sample.SearchResource;
import io.tollgate.sample.StatusResource;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Open Liberty with exactly the features of a JAX-RS application ({@code restfulWS-3.1, cdi-4.0, mpConfig-3.1,
 * jsonb-3.0}; src/test/liberty-without-servlet/server.xml) and no {@code servlet-6.0}: applications do not see
 * the servlet API. A WAR without servlet classes, with a resource limited per client address (trusted proxy
 * 127.0.0.1, clients named by X-Forwarded-For), one without limits, and one calling a CDI service limited per
 * client address (the request reaches the service's interceptor through the CDI request context): all answer,
 * each client has its own burst. The server (container {@code no-servlet}, port 29082) is started for this test
 * only. Liberty only.
 */
@EnabledIfSystemProperty(named = "it.server", matches = "liberty")
@ExtendWith(ArquillianExtension.class)
class WithoutServletIT {

    private static final String CONTAINER = "no-servlet";
    private static final String CONFIG = String.join("\n",
            "tollgate.trusted-proxies=127.0.0.1, ::1",
            "tollgate.rules.search.rate=1/1h",
            "tollgate.rules.search.burst=2",
            "tollgate.rules.search.key=ip",
            "tollgate.rules.quotes.rate=1/1h",
            "tollgate.rules.quotes.burst=2",
            "tollgate.rules.quotes.key=ip",
            "tollgate.rules.gold-quotes.rate=1",
            "tollgate.rules.quotes-by-topic.rate=1", "");

    @Deployment(name = CONTAINER, managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive deployment() {
        return Deployments.war(CONTAINER, CONFIG, SampleApplication.class, SearchResource.class, StatusResource.class,
                QuotesResource.class, QuoteService.class);
    }

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Test
    void aLimitedAndAnUnlimitedResourceBothWorkWithAnOwnBucketPerClient() throws Exception {
        URL base = new URL("http://127.0.0.1:" + System.getProperty("liberty.http.no-servlet") + "/" + CONTAINER + "/");
        controller.start(CONTAINER);
        try {
            deployer.deploy(CONTAINER);
            try {
                check(base);
            } finally {
                deployer.undeploy(CONTAINER);
            }
        } finally {
            controller.stop(CONTAINER);
        }
    }

    private static void check(URL base) {
        int n = ThreadLocalRandom.current().nextInt(1, 254);
        String a = "203.0.113." + n;
        String b = "203.0.113." + (n + 1);
        List<HttpResponse<String>> clientA = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            clientA.add(get(base, "api/search?q=tea", "X-Forwarded-For", a));
        }
        HttpResponse<String> clientB = get(base, "api/search?q=tea", "X-Forwarded-For", b);
        HttpResponse<String> status = get(base, "api/status");
        List<HttpResponse<String>> quotesA = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            quotesA.add(get(base, "api/quote", "X-Forwarded-For", a));
        }
        HttpResponse<String> quoteB = get(base, "api/quote", "X-Forwarded-For", b);
        System.out.println("[it] liberty without servlet-6.0: client A " + clientA.stream().map(HttpResponse::statusCode).toList()
                + ", client B " + clientB.statusCode() + ", /api/status " + status.statusCode() + "; /api/quote: client A "
                + quotesA.stream().map(HttpResponse::statusCode).toList() + ", client B " + quoteB.statusCode());
        assertAll(
                () -> assertEquals(200, status.statusCode(), "the unlimited resource: " + describe(status)),
                () -> assertNull(header(status, "RateLimit"), describe(status)),
                () -> assertEquals(List.of(200, 200, 429), clientA.stream().map(HttpResponse::statusCode).toList(),
                        "client " + a + ": " + clientA.stream().map(Http::describe).toList()),
                () -> assertEquals("\"search\";r=1", withoutT(clientA.get(0)), describe(clientA.get(0))),
                () -> assertEquals("search", json(clientA.get(2)).getString("rule"), describe(clientA.get(2))),
                () -> assertEquals(200, clientB.statusCode(), "client " + b + " has its own bucket: " + describe(clientB)),
                () -> assertEquals("\"search\";r=1", withoutT(clientB), describe(clientB)),
                () -> assertEquals(List.of(200, 200, 429), quotesA.stream().map(HttpResponse::statusCode).toList(),
                        "the service, client " + a + ": " + quotesA.stream().map(Http::describe).toList()),
                () -> assertEquals("\"quotes\";r=1", withoutT(quotesA.get(0)), describe(quotesA.get(0))),
                () -> assertEquals("quotes", json(quotesA.get(2)).getString("rule"), describe(quotesA.get(2))),
                () -> assertEquals("\"quotes\";r=0", withoutT(quotesA.get(2)), describe(quotesA.get(2))),
                () -> assertEquals(200, quoteB.statusCode(), "the service, client " + b + " has its own bucket: " + describe(quoteB)));
    }

    /** @return the RateLimit field up to its {@code t} parameter */
    private static String withoutT(HttpResponse<String> response) {
        String value = header(response, "RateLimit");
        return value == null ? "(no RateLimit field)" : value.split(";t=")[0];
    }
}

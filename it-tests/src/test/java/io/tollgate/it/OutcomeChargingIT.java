package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Charging by outcome over HTTP on a real server, with the contract rules: {@code login} ({@code charge-on=status:401},
 * burst 3 per {@code X-User}) and {@code flaky} ({@code refund-on=status:5xx}, burst 2 per {@code X-Api-Key}).
 */
@ExtendWith(ArquillianExtension.class)
class OutcomeChargingIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contract("outcomes");
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> login(String user, String password) {
        return post(base, "api/login", "", "X-User", user, "X-Password", password);
    }

    @Test
    void successfulLoginsAreNeverLimitedAndFailedOnesAfterExactlyTheBurst() {
        String user = "user-" + UUID.randomUUID();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> ok = login(user, "open-sesame");
            assertEquals(200, ok.statusCode(), "successful login " + (i + 1) + ": " + describe(ok));
        }
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> failed = login(user, "guess-" + i);
            assertEquals(401, failed.statusCode(), "failed login " + (i + 1) + ": " + describe(failed));
        }
        HttpResponse<String> limited = login(user, "guess");
        assertEquals(429, limited.statusCode(), "the fourth failed login: " + describe(limited));
        HttpResponse<String> other = login("other-" + UUID.randomUUID(), "open-sesame");
        assertEquals(200, other.statusCode(), describe(other));
    }

    /**
     * An exception no mapper takes is settled as its request ends, which can be just after the client has the
     * server's 500. Waits until a 500 the resource answers itself, charged and given back before its headers are
     * written, reports the whole burst of 2 in its {@code RateLimit} field.
     */
    private void awaitWholeBurst(String key) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            HttpResponse<String> probe = get(base, "api/flaky?fail=500", "X-Api-Key", key);
            String field = String.valueOf(Http.header(probe, "RateLimit"));
            if (probe.statusCode() == 500 && field.contains(";r=2")) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the unmapped exception's tokens are back within 10 s: " + describe(probe));
        }
    }

    @Test
    void serverErrorsAreRefundedAndA200StillCosts() {
        String key = "key-" + UUID.randomUUID();
        for (String fail : new String[] {"500", "503", "unmapped"}) {
            for (int i = 0; i < 3; i++) { // more failing calls than the burst of 2
                HttpResponse<String> failed = get(base, "api/flaky?fail=" + fail, "X-Api-Key", key);
                assertEquals(fail.equals("503") ? 503 : 500, failed.statusCode(), "fail=" + fail + ": " + describe(failed));
                if (fail.equals("unmapped")) {
                    awaitWholeBurst(key);
                }
            }
        }
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> fine = get(base, "api/flaky", "X-Api-Key", key);
            assertEquals(200, fine.statusCode(), "the burst is still whole after 9 server errors: " + describe(fine));
        }
        HttpResponse<String> limited = get(base, "api/flaky", "X-Api-Key", key);
        assertEquals(429, limited.statusCode(), "two 200s spent the burst of 2: " + describe(limited));
    }
}

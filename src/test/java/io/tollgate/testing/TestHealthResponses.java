package io.tollgate.testing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.spi.HealthCheckResponseProvider;

/** MicroProfile Health's responses as a server's implementation of the API builds them (a service of the tests). */
public final class TestHealthResponses implements HealthCheckResponseProvider {

    @Override
    public HealthCheckResponseBuilder createResponseBuilder() {
        return new Builder();
    }

    private static final class Builder extends HealthCheckResponseBuilder {
        private final Map<String, Object> data = new LinkedHashMap<>();
        private String name;
        private boolean up;

        @Override
        public HealthCheckResponseBuilder name(String value) {
            name = value;
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, String value) {
            return with(key, value);
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, long value) {
            return with(key, value);
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, boolean value) {
            return with(key, value);
        }

        private HealthCheckResponseBuilder with(String key, Object value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder up() {
            return status(true);
        }

        @Override
        public HealthCheckResponseBuilder down() {
            return status(false);
        }

        @Override
        public HealthCheckResponseBuilder status(boolean value) {
            up = value;
            return this;
        }

        @Override
        public HealthCheckResponse build() {
            return new HealthCheckResponse(name, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                    data.isEmpty() ? Optional.empty() : Optional.of(Map.copyOf(data)));
        }
    }
}

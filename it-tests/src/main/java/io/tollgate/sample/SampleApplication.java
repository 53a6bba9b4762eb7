package io.tollgate.sample;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The sample REST API. Every limit is in {@code META-INF/microprofile-config.properties}; the
 * resources only name their rules.
 */
@ApplicationPath("api")
public class SampleApplication extends Application {
}

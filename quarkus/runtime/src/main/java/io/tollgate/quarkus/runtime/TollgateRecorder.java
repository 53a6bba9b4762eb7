package io.tollgate.quarkus.runtime;

import io.quarkus.runtime.annotations.Recorder;
import java.util.List;

/** Hands what the build found to the application when it starts. */
@Recorder
public class TollgateRecorder {

    /** @param names the classes that carry {@code @RateLimited} on themselves or on a method */
    public void annotatedClasses(List<String> names) {
        QuarkusTollgate.annotatedClasses(names);
    }
}

package io.tollgate.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.RateLimited;
import java.io.IOException;
import org.jboss.jandex.Index;
import org.junit.jupiter.api.Test;

/** The classes the build hands to the application's start: those CDI Full's extension is shown, and no more. */
class TollgateProcessorTest {

    @RateLimited("search")
    static class OnTheClass {
        public String get() {
            return "";
        }
    }

    static class OnAMethod {
        @RateLimited("search")
        public String get() {
            return "";
        }

        public String open() {
            return "";
        }
    }

    static class Inheriting extends OnAMethod {
    }

    interface Generated {
        @RateLimited("reviews")
        String review(String id);
    }

    static class Implementing implements Generated {
        @Override
        public String review(String id) {
            return id;
        }
    }

    static class Unlimited {
        public String get() {
            return "";
        }
    }

    @Test
    void classesWithTheAnnotationOnThemOrAMethodAndTheSubclassesThatInheritSuchAMethod() throws IOException {
        Index index = Index.of(OnTheClass.class, OnAMethod.class, Inheriting.class, Generated.class, Implementing.class,
                Unlimited.class, RateLimited.class);
        assertThat(TollgateProcessor.annotatedClasses(index)).containsExactlyInAnyOrder(OnTheClass.class.getName(),
                OnAMethod.class.getName(), Inheriting.class.getName(), Generated.class.getName());
    }

    @Test
    void tollgatesInterceptorIsNotAUse() throws Exception {
        Index index = Index.of(Class.forName("io.tollgate.internal.cdi.RateLimitInterceptor"), OnTheClass.class);
        assertThat(TollgateProcessor.annotatedClasses(index)).containsExactly(OnTheClass.class.getName());
    }
}

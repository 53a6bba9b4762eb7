package io.tollgate.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.RateLimited;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.testing.TestRules;
import java.lang.reflect.Method;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which call the interceptor sees is the resource method's call the JAX-RS filter charged
 * ({@link Binding#isCallOf}): the same method however it is named, and no other class's method of the same name,
 * parameter types and rules.
 */
class BindingCallTest {

    private final TollgateConfig config = TestRules.read(Map.of(
            "tollgate.rules.a.rate", "1/1h",
            "tollgate.rules.b.rate", "1/1h"));

    public static class SearchResource {
        @RateLimited("a")
        public String search(String q) {
            return q;
        }
    }

    /** A service the resource calls: the same name, parameter types and rule. */
    public static class SearchService {
        @RateLimited("a")
        public String search(String q) {
            return q;
        }
    }

    /** A bean that specializes the resource (or a subclass the container generates). */
    public static class SpecialSearchResource extends SearchResource {
        @Override
        public String search(String q) {
            return "special " + q;
        }
    }

    /** A resource that inherits from the service it calls. */
    public static class ServiceResource extends SearchService {
    }

    public static class OtherRuleService {
        @RateLimited("b")
        public String search(String q) {
            return q;
        }
    }

    public interface Api {
        @RateLimited("a")
        String find(String id);
    }

    public static class ApiResource implements Api {
        @Override
        public String find(String id) {
            return id;
        }
    }

    public abstract static class Base {
        @RateLimited("a")
        public String entry(String id) {
            return id;
        }
    }

    public static class BaseResource extends Base {
    }

    public interface Finder<K> {
        String find(K id);
    }

    public static class NumberFinder implements Finder<Long> {
        @Override
        @RateLimited("a")
        public String find(Long id) {
            return "number " + id;
        }
    }

    private Binding binding(Class<?> type, Class<?> declaring, String name, Class<?>... parameters) throws Exception {
        return Binding.of(type, declaring.getDeclaredMethod(name, parameters), config);
    }

    @Test
    void theResourceMethodItselfIsTheCallTheFilterCharged() throws Exception {
        Binding charged = binding(SearchResource.class, SearchResource.class, "search", String.class);
        assertThat(charged.isCallOf(binding(SearchResource.class, SearchResource.class, "search", String.class))).isTrue();
    }

    @Test
    void aServiceWithTheSameNameParametersAndRulesIsAnotherCall() throws Exception {
        Binding charged = binding(SearchResource.class, SearchResource.class, "search", String.class);
        assertThat(charged.isCallOf(binding(SearchService.class, SearchService.class, "search", String.class))).isFalse();
        Binding inherited = binding(ServiceResource.class, SearchService.class, "search", String.class);
        assertThat(inherited.isCallOf(binding(SearchService.class, SearchService.class, "search", String.class)))
                .as("the service a resource inherits from").isFalse();
    }

    @Test
    void aSubclassOfTheResourceClassIsTheResourceAsTheContainerMakesIt() throws Exception {
        Binding charged = binding(SearchResource.class, SearchResource.class, "search", String.class);
        assertThat(charged.isCallOf(binding(SpecialSearchResource.class, SearchResource.class, "search", String.class)))
                .isTrue();
    }

    @Test
    void otherRulesOrAnotherMethodAreAnotherCall() throws Exception {
        Binding charged = binding(SearchResource.class, SearchResource.class, "search", String.class);
        assertThat(charged.isCallOf(binding(OtherRuleService.class, OtherRuleService.class, "search", String.class))).isFalse();
        assertThat(charged.isCallOf(binding(ApiResource.class, Api.class, "find", String.class))).isFalse();
    }

    @Test
    void anInterfaceMethodIsTheMethodOfTheClassImplementingIt() throws Exception {
        Binding interceptorSees = binding(ApiResource.class, ApiResource.class, "find", String.class);
        assertThat(binding(ApiResource.class, Api.class, "find", String.class).isCallOf(interceptorSees)).isTrue();
        assertThat(binding(Api.class, Api.class, "find", String.class).isCallOf(interceptorSees))
                .as("a runtime that names the interface as the resource class").isTrue();
    }

    @Test
    void aMethodInheritedFromAnAbstractClassIsTheResourceClasssMethod() throws Exception {
        Binding charged = binding(BaseResource.class, Base.class, "entry", String.class);
        assertThat(charged.isCallOf(binding(BaseResource.class, Base.class, "entry", String.class))).isTrue();
    }

    @Test
    void aMethodOfAGenericInterfaceIsTheMethodItsBridgeCalls() throws Exception {
        Binding interceptorSees = binding(NumberFinder.class, NumberFinder.class, "find", Long.class);
        Method bridge = NumberFinder.class.getDeclaredMethod("find", Object.class);
        assertThat(bridge.isBridge()).isTrue();
        assertThat(interceptorSees.rules()).hasSize(1);
        assertThat(binding(NumberFinder.class, Finder.class, "find", Object.class).isCallOf(interceptorSees))
                .as("the interface's method, find(Object)").isTrue();
        assertThat(Binding.of(NumberFinder.class, bridge, config).isCallOf(interceptorSees)).as("the bridge").isTrue();
    }
}

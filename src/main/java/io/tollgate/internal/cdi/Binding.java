package io.tollgate.internal.cdi;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What applies to one method of one class: the rules of its {@link RateLimited} (the method's own,
 * else its class's) and the position of its {@link RateLimitKey} parameter. Resolved once per
 * method, never per call.
 */
public final class Binding {

    /** Nothing to check. */
    public static final Binding NONE = new Binding(List.of(), -1);

    private final List<RuleConfig> rules;
    private final int keyParameter;

    private Binding(List<RuleConfig> rules, int keyParameter) {
        this.rules = rules;
        this.keyParameter = keyParameter;
    }

    /**
     * @throws IllegalStateException naming the rule and the element, if a rule is not configured
     */
    public static Binding of(Class<?> type, Method method, TollgateConfig config) {
        RateLimited annotation = annotation(type, method);
        if (annotation == null) {
            return NONE;
        }
        List<RuleConfig> rules = new ArrayList<>();
        for (String name : ruleNames(annotation, type, method)) {
            RuleConfig rule = config.rule(name);
            if (rule == null) {
                throw new IllegalStateException("tollgate.rules." + name + ": rule '" + name + "' used by "
                        + type.getName() + "." + method.getName() + " is not configured");
            }
            rules.add(rule);
        }
        return new Binding(List.copyOf(rules), keyParameter(method));
    }

    /** @return the annotation that governs {@code method} of {@code type}: its own, else the type's */
    public static RateLimited annotation(Class<?> type, Method method) {
        RateLimited own = method.getAnnotation(RateLimited.class);
        return own != null ? own : type.getAnnotation(RateLimited.class);
    }

    /** @return the rule names of an annotation; with none, the element's own name */
    public static Set<String> ruleNames(RateLimited annotation, Class<?> type, Method method) {
        Set<String> names = new LinkedHashSet<>();
        for (String name : annotation.value()) {
            names.add(name.trim());
        }
        if (names.isEmpty()) {
            names.add(method != null && method.isAnnotationPresent(RateLimited.class)
                    ? method.getDeclaringClass().getName() + "." + method.getName()
                    : declaringType(type).getName());
        }
        return names;
    }

    /** @return the class that carries the type-level annotation (it may be inherited) */
    private static Class<?> declaringType(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getDeclaredAnnotation(RateLimited.class) != null) {
                return c;
            }
        }
        return type;
    }

    /** @return the index of the {@link RateLimitKey} parameter, or -1 */
    public static int keyParameter(Method method) {
        Annotation[][] annotations = method.getParameterAnnotations();
        int found = -1;
        for (int i = 0; i < annotations.length; i++) {
            for (Annotation a : annotations[i]) {
                if (a.annotationType() == RateLimitKey.class) {
                    if (found >= 0) {
                        throw new IllegalStateException(method.getDeclaringClass().getName() + "." + method.getName()
                                + " has more than one @RateLimitKey parameter");
                    }
                    found = i;
                }
            }
        }
        return found;
    }

    public List<RuleConfig> rules() {
        return rules;
    }

    /** @return the index of the key parameter, or -1 */
    public int keyParameter() {
        return keyParameter;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }
}

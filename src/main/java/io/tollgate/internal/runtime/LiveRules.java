package io.tollgate.internal.runtime;

import io.tollgate.RateLimitRuleChanged;
import io.tollgate.RateLimitRuleChanged.Source;
import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.config.InvalidConfigurationException;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.RuleEditor;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.store.BucketStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Changes rules while the application runs. Each rule's live part is worked out from the configuration as it reads
 * now with the operator's changes ({@link RuleOverlay}) over it, validated as a deployment would, and swapped in whole;
 * then this member's cached denials and reserves of the rule are dropped, the change is logged (INFO) and the
 * application is told ({@link RateLimitRuleChanged}). Operator changes go through {@link SharedRules}, so every member
 * applies them; the configuration is read again every {@code tollgate.config.refresh} by each member on its own.
 */
public final class LiveRules implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LiveRules.class.getName());
    /** How long a change waits for its rule's buckets to be kept for its new limits before it goes on. */
    private static final long PASS_WAIT_SECONDS = 10;

    private final TollgateConfig config;
    private final RuleEditor editor;
    private final BucketStore store;
    private final SharedRules shared;
    private final Consumer<RateLimitRuleChanged> observer;
    private final Supplier<String> caller;
    /** The operator's changes in force here, by rule. */
    private final Map<String, RuleOverlay> overlays = new ConcurrentHashMap<>();
    /** The last refusal logged, by rule: a configuration that stays refused is logged once. */
    private final Map<String, String> refusals = new ConcurrentHashMap<>();
    /** The pending changes of attributes that are not live, by rule, as last logged: each set is logged once. */
    private final Map<String, String> pending = new ConcurrentHashMap<>();
    /** Applies shared changes (off Hazelcast's event threads) and reads the configuration again, one at a time. */
    private final ScheduledExecutorService worker;
    /** Makes the stored buckets of a changed rule follow its new limits ({@link #retain}), off the worker. */
    private final ScheduledExecutorService keeper;
    /** Said once: this member cannot keep buckets for stricter limits yet. */
    private final AtomicBoolean retainFailureLogged = new AtomicBoolean();

    /**
     * @param store    the store whose local state of a rule ({@link BucketStore#forgetRule}) a change makes stale
     * @param shared   where operator changes are kept
     * @param observer told of each change applied here
     * @param caller   the authenticated caller of the operator API, {@code null} where there is none
     */
    public LiveRules(TollgateConfig config, RuleEditor editor, BucketStore store, SharedRules shared,
            Consumer<RateLimitRuleChanged> observer, Supplier<String> caller) {
        this.config = config;
        this.editor = editor;
        this.store = store;
        this.shared = shared;
        this.observer = observer;
        this.caller = caller;
        ClassLoader application = Thread.currentThread().getContextClassLoader();
        this.worker = daemon("tollgate-live-rules", application);
        this.keeper = daemon("tollgate-bucket-keeper", application);
    }

    private static ScheduledExecutorService daemon(String name, ClassLoader application) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            thread.setContextClassLoader(application);
            return thread;
        });
    }

    /** Takes in the changes made before this member started, listens for the next ones, and starts reading the configuration again. */
    public LiveRules start() {
        shared.start((rule, overlay) -> execute(() -> sharedChange(rule, overlay))).forEach(this::sharedChange);
        Duration refresh = config.configRefresh();
        if (!refresh.isZero()) {
            worker.scheduleWithFixedDelay(this::refresh, refresh.toMillis(), refresh.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** @see io.tollgate.RateLimitRules#change */
    public Map<String, String> change(String rule, Map<String, String> attributes) {
        Objects.requireNonNull(attributes, "attributes");
        return update(rule, current -> {
            Map<String, String> next = new LinkedHashMap<>(current);
            attributes.forEach((name, value) -> next.put(name, Objects.requireNonNull(value, name)));
            return next;
        });
    }

    /** @see io.tollgate.RateLimitRules#override */
    public Map<String, String> override(String rule, String key, String limits) {
        Objects.requireNonNull(key, "key");
        return update(rule, current -> withOverrides(current, RuleEditor.withOverride(resolve(rule, current), key, limits)));
    }

    /** @see io.tollgate.RateLimitRules#removeOverride */
    public Map<String, String> removeOverride(String rule, String key) {
        Objects.requireNonNull(key, "key");
        return update(rule, current -> withOverrides(current, RuleEditor.withoutOverride(resolve(rule, current), key)));
    }

    /** @see io.tollgate.RateLimitRules#revert */
    public Map<String, String> revert(String rule) {
        return update(rule, current -> Map.of());
    }

    /** @see io.tollgate.RateLimitRules#current */
    public Map<String, String> current(String rule) {
        return rule(rule).live().values();
    }

    /** @see io.tollgate.RateLimitRules#changes */
    public Map<String, String> changes(String rule) {
        rule(rule);
        RuleOverlay overlay = overlays.get(rule);
        return overlay == null ? Map.of() : overlay.attributes();
    }

    /**
     * Catches up with the operator's changes as the store holds them now, on this member's worker: what a missed event
     * would have told (a change made on the other side of a split, or while a client was away). A rule whose overlay
     * is as this member has it stays as it is, and tells nobody.
     *
     * @param forgetLocal whether this member's cached denials and reserves go too: they may be stale after missed
     *                    events (a key reset on the other side)
     */
    public void catchUp(boolean forgetLocal) {
        execute(() -> {
            Map<String, RuleOverlay> stored;
            try {
                stored = shared.snapshot();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "The rule changes could not be read again; they are at the next catch-up", e);
                return;
            }
            for (String rule : config.rules().keySet()) {
                if (stored.containsKey(rule) || overlays.containsKey(rule)) {
                    sharedChange(rule, stored.get(rule));
                }
                if (forgetLocal) {
                    store.forgetRule(rule);
                }
            }
        });
    }

    /** Reads the configuration again and applies what changed in it, rule by rule; a rule whose change is refused keeps its values. */
    public void refresh() {
        for (String rule : config.rules().keySet()) {
            try {
                apply(rule, overlays.get(rule), Source.CONFIGURATION, shared.member(), null);
            } catch (RuntimeException e) {
                refused(rule, "Rate-limit rule '" + rule + "': its configuration changed, and the change is refused (the rule "
                        + "keeps its values): " + e.getMessage());
            }
        }
    }

    private Map<String, String> update(String rule, UnaryOperator<Map<String, String>> edit) {
        rule(rule);
        String who = caller.get();
        RuleOverlay stored = shared.update(rule, overlay -> {
            Map<String, String> next = edit.apply(overlay == null ? Map.of() : overlay.attributes());
            resolve(rule, next); // refused whole, nothing stored
            return next.isEmpty() ? null : new RuleOverlay(next, shared.member(), who, Instant.now());
        });
        apply(rule, stored, Source.API, stored == null ? shared.member() : stored.by(), who);
        return current(rule);
    }

    private static Map<String, String> withOverrides(Map<String, String> overlay, String overrides) {
        Map<String, String> next = new LinkedHashMap<>(overlay);
        next.put("overrides", overrides);
        return next;
    }

    /** @throws IllegalArgumentException with the deployment's problem lines if the rule cannot have {@code overlay} */
    private LiveRule resolve(String rule, Map<String, String> overlay) {
        try {
            return editor.resolve(rule, overlay);
        } catch (InvalidConfigurationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private void sharedChange(String rule, RuleOverlay overlay) {
        if (config.rule(rule) == null) {
            refused(rule, "Rate-limit rule '" + rule + "' was changed on " + (overlay == null ? "another member" : overlay.by())
                    + ", but this member has no such rule; it is left out here");
            return;
        }
        try {
            apply(rule, overlay, Source.API, overlay == null ? "another member" : overlay.by(), overlay == null ? null : overlay.caller());
        } catch (RuntimeException e) {
            refused(rule, "Rate-limit rule '" + rule + "': the change made on " + (overlay == null ? "another member" : overlay.by())
                    + " is refused on this member, whose configuration differs (the rule keeps its values here): " + e.getMessage());
        }
    }

    /**
     * Works out the rule with {@code overlay} and, if that changes it, swaps it in and says so.
     *
     * @param who the authenticated caller who made the change through the API, or {@code null}
     */
    private synchronized void apply(String name, RuleOverlay overlay, Source source, String origin, String who) {
        RuleConfig rule = rule(name);
        LiveRule next = resolve(name, overlay == null ? Map.of() : overlay.attributes());
        String waiting = String.join("\n  ", editor.pending(name));
        if (!waiting.equals(pending.getOrDefault(name, ""))) {
            pending.put(name, waiting);
            if (!waiting.isEmpty()) {
                LOG.warning("Rate-limit rule '" + name + "': the configuration changed what only a deployment applies:\n  " + waiting);
            }
        }
        if (overlay == null) {
            overlays.remove(name);
        } else {
            overlays.put(name, overlay);
        }
        refusals.remove(name);
        LiveRule before = rule.live();
        if (next.sameValues(before)) {
            return;
        }
        editor.apply(rule, next);
        store.forgetRule(name);
        Map<String, RateLimitRuleChanged.Change> changes = new LinkedHashMap<>();
        Map<String, String> after = next.shownValues();
        before.shownValues().forEach((attribute, old) -> {
            if (!old.equals(after.get(attribute))) {
                changes.put(attribute, new RateLimitRuleChanged.Change(old, after.get(attribute)));
            }
        });
        if ((changes.containsKey(LiveRule.LIMITS) || changes.containsKey(LiveRule.OVERRIDES)) && next.fromRequest() == null
                && (source == Source.CONFIGURATION || origin.equals(shared.member()))) {
            retain(name, next);
        }
        Instant now = Instant.now();
        LOG.info(() -> "Rate-limit rule '" + name + "' changed " + (source == Source.API ? "through the operator API (made "
                + (who == null ? "" : "by " + who + " ") + "on " + origin
                + (overlay == null ? ", reverted to the configuration" : " at " + overlay.at()) + ")" : "in the configuration")
                + ", applied on " + shared.member() + " at " + now + ": " + describe(changes));
        observer.accept(new RateLimitRuleChanged(name, changes, source, origin, who, shared.member(), now));
    }

    /**
     * Makes every stored bucket of the rule expire when its new limits (the rule's, or its override's) have refilled
     * it, not when the limits that last wrote it would have: a denial writes nothing, so a bucket drained under
     * looser limits would otherwise come back full long before. Done where the change was made (each member, for a
     * change of its configuration), off the caller's thread, and once more a second later, for a bucket written by
     * a member that had not applied the change yet. The change waits for the first pass, at most
     * {@value #PASS_WAIT_SECONDS} s: in memory, it is done when the change returns.
     */
    private void retain(String name, LiveRule live) {
        Set<String> overridden = new HashSet<>();
        live.overrides().keySet().forEach(key -> overridden.add(BucketKeys.of(name, key)));
        Runnable pass = () -> {
            try {
                store.retainRule(name, live.limits().bucket(), overridden).toCompletableFuture().get();
                for (Map.Entry<String, BucketLimits> override : live.overrides().entrySet()) {
                    store.retain(BucketKeys.of(name, override.getKey()), override.getValue().bucket()).toCompletableFuture().get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | RuntimeException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                LOG.log(retainFailureLogged.compareAndSet(false, true) ? Level.WARNING : Level.FINE, "Rate-limit rule '" + name
                        + "': its stored buckets keep the time-to-live their last write gave them (" + cause.getMessage()
                        + "); a bucket drained under the old limits may come back full before the new ones refill it", cause);
            }
        };
        try {
            Future<?> first = keeper.submit(pass);
            keeper.schedule(pass, 1, TimeUnit.SECONDS);
            first.get(PASS_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "A rule change arrived after Tollgate stopped", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(Level.FINE, "The stored buckets of rule '" + name + "' are kept for its new limits in the background", e);
        }
    }

    private static String describe(Map<String, RateLimitRuleChanged.Change> changes) {
        StringBuilder text = new StringBuilder();
        changes.forEach((attribute, change) -> text.append(text.length() == 0 ? "" : ", ").append(attribute).append(" '")
                .append(change.before()).append("' -> '").append(change.after()).append('\''));
        return text.toString();
    }

    private void refused(String rule, String message) {
        if (!message.equals(refusals.put(rule, message))) {
            LOG.warning(message);
        }
    }

    private RuleConfig rule(String name) {
        RuleConfig rule = name == null ? null : config.rule(name);
        if (rule == null) {
            throw new IllegalArgumentException("rule = '" + name + "': no such rule; configured rules are " + config.rules().keySet());
        }
        return rule;
    }

    private void execute(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "A rule change arrived after Tollgate stopped", e);
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        keeper.shutdownNow();
        try {
            shared.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "Closing the shared rule changes failed", e);
        }
    }
}

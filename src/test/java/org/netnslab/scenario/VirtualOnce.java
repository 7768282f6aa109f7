package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;

/** One scenario run on a virtual actor system of its own, which is terminated (and its engine freed) after it. */
public final class VirtualOnce {
    private VirtualOnce() {}

    /**
     * @param name the actor system's name
     * @param s the scenario
     * @param settings the run's timeouts
     * @return its result
     * @throws Exception from the run or from terminating
     */
    public static RunResult run(String name, Scenario s, RunSettings settings) throws Exception {
        return run(name, s, settings, ConfigFactory.load());
    }

    /**
     * @param name the actor system's name
     * @param s the scenario
     * @param settings the run's timeouts
     * @param config the actor system's configuration
     * @return its result
     * @throws Exception from the run or from terminating
     */
    public static RunResult run(String name, Scenario s, RunSettings settings, Config config) throws Exception {
        ActorSystem<Void> sys = VirtualSystem.create(Behaviors.empty(), name, config);
        try {
            return new ScenarioRunner(sys, settings, RunObserver.SILENT).run(s);
        } finally {
            VirtualSystem.terminate(sys, Duration.ofSeconds(5));
        }
    }
}

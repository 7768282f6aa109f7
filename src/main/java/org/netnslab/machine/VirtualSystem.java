package org.netnslab.machine;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Map;

/**
 * Builds an actor system for virtual execution: its default dispatcher runs every mailbox on a new
 * {@link VirtualEngine} and its scheduler is a {@link VirtualScheduler} on the same engine. Akka's loggers
 * stay on a real thread (their start-up is awaited while the engine is not yet driven); they never
 * send to the model.
 */
public final class VirtualSystem {
  private VirtualSystem() {}

  /**
   * @param guardian the user guardian's behaviour
   * @param name the actor system's name
   * @param base the configuration it would have in live execution
   * @param <T> the guardian's protocol
   * @return the system; {@code Machine.get(system).engine()} is its engine
   */
  public static <T> ActorSystem<T> create(Behavior<T> guardian, String name, Config base) {
    VirtualEngine engine = VirtualEngine.create();
    Config overlay = ConfigFactory.parseMap(Map.of(
        "akka.actor.default-dispatcher.executor", VirtualExecutorConfigurator.class.getName(),
        "akka.actor.default-dispatcher.engine-id", engine.id(),
        "akka.actor.default-dispatcher.throughput", 16,
        "akka.scheduler.implementation", VirtualScheduler.class.getName(),
        "akka.loggers-dispatcher", "akka.actor.internal-dispatcher",
        "netns-lab.machine.engine-id", engine.id()));
    ActorSystem<T> system = ActorSystem.create(guardian, name, overlay.withFallback(base));
    system.getWhenTerminated().thenRun(engine::unregister);
    return system;
  }
}

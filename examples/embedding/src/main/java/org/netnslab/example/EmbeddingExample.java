package org.netnslab.example;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import akka.japi.Pair;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.netnslab.NetnsLab;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/** Starts netns-lab in an application's actor system, injects one uevent into a netns, stops it. */
public final class EmbeddingExample {
  public static void main(String[] args) throws Exception {
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "app");
    try {
      System.out.println(run(system));
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get();
    }
  }

  static String run(ActorSystem<?> system) throws Exception {
    // netns-lab.embedded.design picks the design; the model runs on netns-lab.dispatcher
    NetnsLab.Instance lab = NetnsLab.start(system, system.settings().config(), Duration.ofSeconds(5));
    NetnsLab.Client client = lab.client();

    UserNamespace userns = UserNamespace.INIT.createChild(1, 1000);   // unshare -U by uid 1000
    NetnsHandle netns = client.createNetns(userns).toCompletableFuture().get();

    Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<List<Received>>> listener = // rmem_default
        client.uevents(netns, SocketOptions.DEFAULT).take(1).toMat(Sink.seq(), Keep.both()).run(system);
    listener.first().toCompletableFuture().get();      // bound: it sees every later uevent

    byte[] payload = "add@/devices/virtual/net/veth0\0ACTION=add\0".getBytes(StandardCharsets.US_ASCII);
    InjectResult sent = client.inject(netns, Credentials.root(userns, 1000), payload).toCompletableFuture().get();
    Uevent received = (Uevent) listener.second().toCompletableFuture().get().get(0);

    client.releaseNetns(netns).toCompletableFuture().get();        // put_net: cleanup_net, net_free
    lab.stop().toCompletableFuture().get();            // every actor it started has stopped
    return sent + " -> " + received.decode();
  }
}

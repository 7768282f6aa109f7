package org.netnslab.proc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.stream.javadsl.Sink;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.proc.ProcListenerTable.Accounting;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

public class ProcConnectorTest extends JUnitSuite {
  @ClassRule public static final TestKitJunitResource testKit = new TestKitJunitResource();
  @Rule public final LogCapturing logCapturing = new LogCapturing();

  private static final Credentials ROOT = Credentials.root(UserNamespace.INIT, 0);

  private static ProcEvent ev(int what, int cpu, int exitCode) {
    return new ProcEvent(what, cpu, 0, 0, 100, 100, 0, exitCode, 0);
  }

  private static ProcConnector.Joined join(ActorRef<ProcConnector.Command> pc, int capacity) {
    TestProbe<ProcConnector.JoinReply> p = testKit.createTestProbe();
    pc.tell(new ProcConnector.Join(true, capacity, p.getRef()));
    return (ProcConnector.Joined) p.receiveMessage();
  }

  private static void listen(ActorRef<ProcConnector.Command> pc, long socket, Integer mask) {
    TestProbe<Done> ack = testKit.createTestProbe();
    pc.tell(new ProcConnector.Subscribe(socket, ROOT, true,
        ProcSubscription.encode(ProcEvents.MCAST_LISTEN, mask), ack.getRef()));
    ack.expectMessage(Done.getInstance());
  }

  private static ProcConnector.Stats stats(ActorRef<ProcConnector.Command> pc) {
    TestProbe<ProcConnector.Stats> p = testKit.createTestProbe();
    pc.tell(new ProcConnector.GetStats(p.getRef()));
    return p.receiveMessage();
  }

  private static List<ProcEvent> events(CompletionStage<List<ProcReceived>> items) throws Exception {
    List<ProcEvent> out = new ArrayList<>();
    for (ProcReceived r : items.toCompletableFuture().get(10, TimeUnit.SECONDS)) {
      ProcEvent e = ((ProcReceived.Event) r).event();
      if (e.what() != ProcEvents.NONE) { // acks are checked on their own
        out.add(e);
      }
    }
    return out;
  }

  /** Events received (acks left out) plus the drops ENOBUFS reported: every event one way or the other. */
  private static long receivedOrReported(List<ProcReceived> items) {
    long n = 0;
    for (ProcReceived r : items) {
      if (r instanceof ProcReceived.Enobufs e) {
        n += e.dropped();
      } else if (((ProcReceived.Event) r).event().what() != ProcEvents.NONE) {
        n++;
      }
    }
    return n;
  }

  /** Publishes fork, exec, a clean exit, exit(1) and a SIGKILL death, then closes the listed sockets. */
  private static void publishMixAndClose(ActorRef<ProcConnector.Command> pc, List<Long> sockets) {
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXEC, 0, 0)));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 1 << 8)));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 9)));
    sockets.forEach(s -> pc.tell(new ProcConnector.Close(s)));
  }

  @Test
  public void perListenerFilteringGivesEachListenerWhatItAskedFor() throws Exception {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 2));
    int[] masks = {ProcEvents.ALL, ProcEvents.FORK | ProcEvents.EXIT, ProcEvents.EXIT, ProcEvents.NONZERO_EXIT};
    List<CompletionStage<List<ProcReceived>>> got = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    for (int mask : masks) {
      ProcConnector.Joined j = join(pc, 64);
      listen(pc, j.socket(), mask);
      got.add(j.events().runWith(Sink.seq(), testKit.system()));
      ids.add(j.socket());
    }
    publishMixAndClose(pc, ids);
    assertEquals(5, events(got.get(0)).size());
    assertEquals(4, events(got.get(1)).size()); // fork + 3 exits
    assertEquals(3, events(got.get(2)).size());
    List<ProcEvent> nonzero = events(got.get(3));
    assertEquals("exactly the non-zero exits, signals included", List.of(1 << 8, 9),
        nonzero.stream().map(ProcEvent::exitCode).toList());
    ProcConnector.Stats s = stats(pc);
    assertEquals(5, s.generated());
    assertEquals("events, plus the ack of the listener of everything", 5 + 4 + 3 + 2 + 1, s.delivered());
    assertEquals(4 * 5 - 14, s.filtered());
  }

  @Test
  public void dropsPendingAtCloseStillReachTheListenerAsEnobufs() throws Exception {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
    ProcConnector.Joined slow = join(pc, 2);
    listen(pc, slow.socket(), ProcEvents.FORK);
    TestSubscriber.Probe<ProcReceived> probe =
        slow.events().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system());
    for (int i = 0; i < 50; i++) {
      pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
    }
    pc.tell(new ProcConnector.Close(slow.socket())); // its queue is full: the ENOBUFS waits for room
    probe.request(100);
    List<ProcReceived> got = new ArrayList<>();
    while (true) {
      var n = probe.expectNextOrComplete();
      if (n.isLeft()) {
        break; // completed
      }
      got.add(n.right().get());
    }
    assertEquals("every event received or reported, even those dropped just before the close", 50,
        receivedOrReported(got));
    assertTrue(got.get(got.size() - 1) instanceof ProcReceived.Enobufs);
  }

  @Test
  public void theAckGoesThroughTheSocketsOwnFilter() throws Exception {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
    ProcConnector.Joined everything = join(pc, 8);
    ProcConnector.Joined exits = join(pc, 8);
    listen(pc, everything.socket(), null);
    listen(pc, exits.socket(), ProcEvents.EXIT);
    CompletionStage<List<ProcReceived>> a = everything.events().runWith(Sink.seq(), testKit.system());
    CompletionStage<List<ProcReceived>> b = exits.events().runWith(Sink.seq(), testKit.system());
    pc.tell(new ProcConnector.Close(everything.socket()));
    pc.tell(new ProcConnector.Close(exits.socket()));
    List<ProcReceived> gotA = a.toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(1, gotA.size());
    assertEquals(ProcEvents.NONE, ((ProcReceived.Event) gotA.get(0)).event().what());
    assertEquals("a masked listener does not get the ack", List.of(), b.toCompletableFuture().get(10, TimeUnit.SECONDS));
  }

  @Test
  public void withoutFilteringEveryListenerGetsEverything() throws Exception {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.NONE, Accounting.PER_SOCKET, 1));
    ProcConnector.Joined j = join(pc, 64);
    listen(pc, j.socket(), ProcEvents.NONZERO_EXIT);
    CompletionStage<List<ProcReceived>> got = j.events().runWith(Sink.seq(), testKit.system());
    publishMixAndClose(pc, List.of(j.socket()));
    assertEquals(5, events(got).size());
  }

  @Test
  public void noEventIsGeneratedWithoutAListenerAndSeqIsPerCpu() throws Exception {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 2));
    ProcConnector.Joined j = join(pc, 64);
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
    assertEquals(0, stats(pc).generated());
    listen(pc, j.socket(), null);
    CompletionStage<List<ProcReceived>> got = j.events().runWith(Sink.seq(), testKit.system());
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 1, 0)));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
    pc.tell(new ProcConnector.Close(j.socket()));
    assertEquals(List.of(1L, 1L, 2L), events(got).stream().map(ProcEvent::seq).toList());
  }

  @Test
  public void accessRules() {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
    TestProbe<ProcConnector.JoinReply> join = testKit.createTestProbe();
    pc.tell(new ProcConnector.Join(false, 8, join.getRef()));
    assertEquals(new ProcConnector.JoinFailed("the proc connector works only in init_net"), join.receiveMessage());
    ProcConnector.Joined j = join(pc, 8);
    TestProbe<Done> ack = testKit.createTestProbe();
    Credentials inChild = Credentials.root(UserNamespace.INIT.createChild(1, 1000), 1000);
    pc.tell(new ProcConnector.Subscribe(j.socket(), inChild, true, ProcSubscription.encode(1, null), ack.getRef()));
    pc.tell(new ProcConnector.Subscribe(j.socket(), ROOT, false, ProcSubscription.encode(1, null), ack.getRef()));
    pc.tell(new ProcConnector.Subscribe(j.socket(), ROOT, true, new byte[6], ack.getRef()));
    ack.expectNoMessage(Duration.ofMillis(100));
    ProcConnector.Stats s = stats(pc);
    assertEquals(3, s.ignoredSubscriptions());
    assertEquals(0, s.listenerCount());
  }

  @Test
  public void overflowDropsCountsAndSignalsEnobufsWhileOthersLoseNothing() throws Exception {
    ActorRef<ProcConnector.Command> pc =
        testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
    ProcConnector.Joined slow = join(pc, 2);
    ProcConnector.Joined fast = join(pc, 1024);
    listen(pc, slow.socket(), null);
    listen(pc, fast.socket(), null);
    TestSubscriber.Probe<ProcReceived> slowProbe =
        slow.events().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system());
    CompletionStage<List<ProcReceived>> fastGot = fast.events().runWith(Sink.seq(), testKit.system());
    for (int i = 0; i < 200; i++) { // the slow listener requests nothing meanwhile
      pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
    }
    ProcConnector.Stats s = stats(pc);
    assertTrue("the slow listener dropped", s.dropped() > 0);
    slowProbe.request(1000);
    List<ProcReceived> first = scala.jdk.javaapi.CollectionConverters.asJava(
        slowProbe.receiveWithin(scala.concurrent.duration.Duration.create(300, TimeUnit.MILLISECONDS), 1000));
    pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
    ProcReceived.Enobufs last = (ProcReceived.Enobufs) slowProbe.expectNext();
    assertEquals(ProcEvents.EXIT, ((ProcReceived.Event) slowProbe.expectNext()).event().what());
    long events = first.stream().filter(r -> r instanceof ProcReceived.Event ev && ev.event().what() != ProcEvents.NONE)
        .count();
    assertEquals("every event received or reported as dropped", 200, receivedOrReported(first) + last.dropped());
    assertEquals(s.dropped(), receivedOrReported(first) + last.dropped() - events);
    pc.tell(new ProcConnector.Close(slow.socket()));
    pc.tell(new ProcConnector.Close(fast.socket()));
    assertEquals("the other listener lost nothing", 201, events(fastGot).size());
  }
}

package org.netnslab.netlink;

import akka.japi.Pair;
import akka.stream.Attributes;
import akka.stream.Outlet;
import akka.stream.SourceShape;
import akka.stream.stage.AbstractGraphStageWithMaterializedValue;
import akka.stream.stage.GraphStageLogic;
import java.util.function.Supplier;

/**
 * A socket reader that opens its socket when it is materialized, each materialization its own
 * socket ({@link ReceiveQueue#opening}). The socket is read by the same logic as {@link RecvStage}'s,
 * in this one stage: a {@code Source.fromMaterializer} would put the reader behind a sub-stream
 * boundary, two asynchronous hops through the stream actor's mailbox for every message.
 *
 * @param <T> what the reader receives
 * @param <M> the materialized value
 */
final class OpeningStage<T, M> extends AbstractGraphStageWithMaterializedValue<SourceShape<T>, M> {
    private final Supplier<ReceiveQueue.Opening<T, M>> open;
    private final Outlet<T> out = Outlet.create("netlink.recvmsg");
    private final SourceShape<T> shape = SourceShape.of(out);

    OpeningStage(Supplier<ReceiveQueue.Opening<T, M>> open) {
        this.open = open;
    }

    @Override
    public SourceShape<T> shape() {
        return shape;
    }

    @Override
    public Pair<GraphStageLogic, M> createLogicAndMaterializedValuePair(Attributes inheritedAttributes) {
        ReceiveQueue.Opening<T, M> opened = open.get();
        opened.socket().claimReader();
        return Pair.create(RecvStage.logic(shape, opened.socket(), opened.closed()), opened.value());
    }
}

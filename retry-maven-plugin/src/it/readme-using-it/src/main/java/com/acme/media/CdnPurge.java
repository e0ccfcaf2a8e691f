package com.acme.media;

import com.acme.media.retry.CdnPurgeHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.runtime.codec.JacksonPayloadCodec;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

final class CdnPurge implements CdnPurgeHandler {

    private final Cdn cdn;

    CdnPurge(Cdn cdn) {
        this.cdn = cdn;
    }

    @Override
    public void photoDeleted(DeliveryContext context) throws Exception {
        cdn.purge(new String(context.body(), StandardCharsets.UTF_8));   // throw to retry
    }

    @Override
    public void albumDeleted(AlbumDeleted album, DeliveryContext context) throws Exception {
        cdn.purgeAll(album.photos());
    }

    static RetryingConsumer consume(Connection connection, Cdn cdn, ObjectMapper objectMapper) throws IOException {
        return RetryingConsumer.builder(connection, CdnPurgeHandler.routes(new CdnPurge(cdn)))
                .codec(PayloadCodec.builtIn().or(new JacksonPayloadCodec(objectMapper)))
                .prefetch(50)
                .consumers(4)
                .start();
    }
}

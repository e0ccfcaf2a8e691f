package com.acme.media;

import com.acme.media.retry.CdnPurgeHandler;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Component;

@Component
class CdnPurge implements CdnPurgeHandler {

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
}

package main

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// webhookSender is the process's one webhook sender: it delivers monitor
// changes and prospecting run events, and its key (the one sealing
// integration keys) seals their signing secrets at rest and opens them to
// sign.
func webhookSender(box *secrets.Box, allowPrivate bool, log zerolog.Logger) *saved.Webhooks {
	return &saved.Webhooks{Client: saved.WebhookClient(allowPrivate), Secrets: box, Log: log}
}

// sealWebhookSecrets seals, before serving, the webhook signing secrets
// that versions before sealing stored in plaintext, and seals again under
// the current key those sealed under a rotated-out one. A secret that
// does not open (its key no longer configured) is left as it is and
// logged by its row, never by its value; its deliveries fail with the
// same error until the key is configured again.
func sealWebhookSecrets(ctx context.Context, st store.Store, box *secrets.Box, log zerolog.Logger) error {
	sealer, ok := st.(store.WebhookSecretSealer)
	if !ok {
		return nil
	}
	n, err := sealer.ResealWebhookSecrets(ctx, func(stored, aad string) (string, bool, error) {
		return saved.Reseal(box, stored, aad)
	})
	if n > 0 {
		log.Info().Int("secrets", n).Msg("webhook signing secrets sealed")
	}
	if err != nil {
		log.Error().Err(err).Msg("some webhook signing secrets could not be sealed")
	}
	return ctx.Err()
}

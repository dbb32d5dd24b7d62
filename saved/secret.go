package saved

import (
	"errors"
	"fmt"

	"github.com/openprospect/prospectd/secrets"
)

// Signing secrets at rest: a monitor's secret, and a queued event's, are
// stored sealed with the service's secrets.Box (the key that seals
// integration keys), bound to their row (store.MonitorSecretAAD,
// store.EventSecretAAD), and opened only to sign a delivery. A plaintext
// "whsec_" secret written before sealing still signs as it is, until the
// start-up pass (Reseal through store.WebhookSecretSealer) seals it.

// ErrNoSecretsKey: a secret must be sealed or opened and no secrets.Box
// was configured.
var ErrNoSecretsKey = errors.New("no secrets key configured for webhook signing secrets")

// SealSecret seals a new signing secret for storage, bound to aad.
func SealSecret(box *secrets.Box, plain, aad string) (string, error) {
	if box == nil {
		return "", ErrNoSecretsKey
	}
	sealed, err := box.Seal(plain, aad)
	if err != nil {
		return "", fmt.Errorf("seal webhook secret: %w", err)
	}
	return sealed, nil
}

// OpenSecret returns the signing secret a stored value holds: a sealed
// value opened with aad (a value sealed under a key box does not hold is
// secrets.ErrUnknownKey), a plaintext one as it is. Errors never carry
// the value.
func OpenSecret(box *secrets.Box, stored, aad string) (string, error) {
	if !secrets.IsSealed(stored) {
		return stored, nil
	}
	if box == nil {
		return "", fmt.Errorf("open webhook secret: %w", ErrNoSecretsKey)
	}
	plain, err := box.Open(stored, aad)
	if errors.Is(err, secrets.ErrUnknownKey) {
		return "", fmt.Errorf("open webhook secret: %w (a rotated-out key must stay among the old keys until its values are sealed again)", err)
	}
	if err != nil {
		return "", fmt.Errorf("open webhook secret: %w", err)
	}
	return plain, nil
}

// Reseal is the fix of store.WebhookSecretSealer: a plaintext secret is
// sealed, one sealed under a rotated-out key is sealed again under the
// primary key; changed is false when the value is fine as it is.
func Reseal(box *secrets.Box, stored, aad string) (value string, changed bool, err error) {
	if secrets.IsSealed(stored) {
		if box == nil || !box.NeedsRotation(stored) {
			return stored, false, nil
		}
		plain, err := OpenSecret(box, stored, aad)
		if err != nil {
			return "", false, err
		}
		stored = plain
	}
	sealed, err := SealSecret(box, stored, aad)
	if err != nil {
		return "", false, err
	}
	return sealed, true, nil
}

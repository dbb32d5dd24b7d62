package research

import "strings"

// price is a model's list price in USD per million tokens.
type price struct{ in, out float64 }

// prices are list prices of common models, matched by name prefix
// (longest first wins). A model not listed is estimated at 0: the
// estimate is best-effort, the provider's invoice is the truth.
var prices = map[string]price{
	"openai/gpt-4o-mini":          {0.15, 0.60},
	"openai/gpt-4o":               {2.50, 10.00},
	"openai/gpt-4.1-nano":         {0.10, 0.40},
	"openai/gpt-4.1-mini":         {0.40, 1.60},
	"openai/gpt-4.1":              {2.00, 8.00},
	"openai/gpt-5-nano":           {0.05, 0.40},
	"openai/gpt-5-mini":           {0.25, 2.00},
	"openai/gpt-5":                {1.25, 10.00},
	"openai/o4-mini":              {1.10, 4.40},
	"anthropic/claude-3-5-haiku":  {0.80, 4.00},
	"anthropic/claude-haiku-4":    {1.00, 5.00},
	"anthropic/claude-3-7-sonnet": {3.00, 15.00},
	"anthropic/claude-sonnet-4":   {3.00, 15.00},
	"anthropic/claude-opus-4":     {15.00, 75.00},
}

func modelCost(provider, model string, in, out int64) float64 {
	key := provider + "/" + strings.ToLower(model)
	best := ""
	for k := range prices {
		if strings.HasPrefix(key, k) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return 0
	}
	p := prices[best]
	return (float64(in)*p.in + float64(out)*p.out) / 1e6
}

// builtinSearchCost is the vendors' per-search fee of built-in search
// ($10 per 1,000 searches for both at the time of writing).
func builtinSearchCost(provider string, searches int) float64 {
	switch provider {
	case "openai", "anthropic":
		return float64(searches) * 0.01
	}
	return 0
}

// ModelCost is the list-price estimate of a call of in prompt and out
// completion tokens (0 for a model not listed); planners estimate with it.
func ModelCost(provider, model string, in, out int64) float64 {
	return modelCost(provider, model, in, out)
}

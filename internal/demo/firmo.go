package demo

import (
	"math"

	"github.com/openprospect/prospectd/record"
)

// The corpus is dated: start and end dates are before ReferenceDate, update
// dates in 2026 after it, and a company's age is counted up to it.
const (
	refYear, refMonth, refDay = 2026, 1, 1
	daysPerYear               = 365.25
)

// ReferenceDate is the day ages are measured to ("2026-01-01"). Ages
// measured to any later day are larger, and MaxScoreForAge grows with age,
// so a caller using today's date gets a cap the corpus respects too.
const ReferenceDate = "2026-01-01"

// MaxScoreForAge is the highest score a company founded the given number
// of years before ReferenceDate can have: 800 − 680·e^(−years/6), rounded
// down. A digital footprint takes years to build: 120 at founding, 387 at
// three years, 671 at ten, 775 at twenty. Negative ages count as zero.
func MaxScoreForAge(years float64) int {
	if years < 0 || math.IsNaN(years) {
		years = 0
	}
	return int(800 - 680*math.Exp(-years/6))
}

// ageYears draws a company age: 0-76 years, skewed young (median about
// 16 years).
func ageYears(r *rng) float64 {
	return 76 * math.Pow(r.float(), 2.3)
}

// sizeWeights are employee-bucket weights (per 10,000) by age band: older
// companies are bigger.
var (
	ageBands    = []float64{2, 5, 10, 20, 40, math.Inf(1)}
	sizeWeights = [][]int{
		{7600, 2000, 330, 50, 12, 6, 1, 1},
		{5600, 3000, 1000, 250, 80, 50, 10, 10},
		{4500, 3200, 1500, 450, 180, 120, 30, 20},
		{3600, 3200, 1900, 700, 300, 220, 50, 30},
		{2800, 3100, 2200, 900, 450, 380, 100, 70},
		{2000, 2800, 2500, 1200, 600, 600, 170, 130},
	}
	sizeTables = func() []weighted {
		out := make([]weighted, len(sizeWeights))
		for k, w := range sizeWeights {
			out[k] = newWeighted(w)
		}
		return out
	}()
)

// headcount draws an employee count for a company of the given age;
// shift (-1, 0, +1) moves industries known for small or large companies.
func headcount(r *rng, age float64, shift int) int {
	band := 0
	for age >= ageBands[band] {
		band++
	}
	b := sizeTables[band].sample(r.next())
	if shift != 0 && r.chance(0.35) {
		b = min(max(b+shift, 0), len(record.EmployeeBuckets)-1)
	}
	lo, hi, _ := record.EmployeeBucketRange(record.EmployeeBuckets[b])
	if hi > 300000 {
		hi = 300000
	}
	// Log-uniform inside the bucket: more 12-person than 48-person firms.
	return int(math.Exp(math.Log(float64(lo)) + r.float()*(math.Log(float64(hi)+1)-math.Log(float64(lo)))))
}

// revenuePerEmployee is typical annual revenue per head in USD by
// archetype.
var revenuePerEmployee = map[archetype]float64{
	archSoftware: 180e3, archServices: 110e3, archIndustrial: 260e3, archFinance: 400e3,
	archConsumer: 200e3, archHealth: 120e3, archPublic: 90e3, archMedia: 150e3, archCommerce: 250e3,
}

// revenueRange returns the revenue bucket, "" when unknown (more often for
// small companies, which rarely publish figures).
func revenueRange(r *rng, employees int, a archetype) string {
	unknown := 0.12
	if employees <= 10 {
		unknown = 0.3
	}
	if r.chance(unknown) {
		return ""
	}
	usd := float64(employees) * revenuePerEmployee[a] * math.Exp(0.6*r.normal())
	return record.RevenueBucket(int64(usd))
}

// score is the digital-footprint score: a raw value growing with size and
// age, raw = 62·ln(1+employees) + 80·ln(1+years) + 45·N(0,1) + 10, squashed
// under the age cap as cap·tanh(raw/cap) so that it approaches the cap
// smoothly instead of piling up on it.
func score(r *rng, employees int, years float64) int {
	raw := 62*math.Log1p(float64(employees)) + 80*math.Log1p(years) + 45*r.normal() + 10
	limit := MaxScoreForAge(years)
	s := int(math.Round(float64(limit) * math.Tanh(math.Max(raw, 0)/float64(limit))))
	return min(max(s, 1), limit)
}

// daysFromCivil returns the day number of a proleptic Gregorian date
// (1970-01-01 is 0), after Howard Hinnant's algorithm.
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int) (y, m, d int) {
	z += 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

var (
	refDayNum   = daysFromCivil(refYear, refMonth, refDay)
	firstDayNum = daysFromCivil(1950, 1, 1)
)

// dateString formats a day number as YYYY-MM-DD.
func dateString(day int) string {
	y, m, d := civilFromDays(day)
	b := [10]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + m/10), byte('0' + m%10), '-', byte('0' + d/10), byte('0' + d%10)}
	return string(b[:])
}

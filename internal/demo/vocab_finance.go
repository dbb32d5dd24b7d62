package demo

var financeIndustries = []industrySpec{
	{
		label: "FINANCIAL_SERVICES", weight: 4, arch: archFinance,
		kinds:   "financial services firm, financial advisory firm, finance company",
		names:   "Financial, Finance, Advisors, Credit",
		models:  "B2C:5 B2B:5",
		related: "BANKING INVESTMENT_MANAGEMENT FINTECH",
		vendors: "salesforce.com docusign.com plaid.com onetrust.com calendly.com",
		terms: "financial services, financial planning, clients, advisors, financial advice, regulated firm, fees, " +
			"fiduciary duty, financial goals, accounts, statements, compliance, licensed professionals, financial products, " +
			"consultation, transparency, client portal, risk profile, financial wellbeing",
		niches: []nicheSpec{
			{"wealth and retirement planning",
				"retirees, pre-retirees, high-net-worth families, business owners, physicians, young professionals",
				"retirement planning, wealth management, financial advisor, fee-only planning, retirement income, " +
					"pension planning, 401(k) rollovers, IRA accounts, Roth conversions, estate planning, trusts, " +
					"inheritance planning, tax-efficient investing, Social Security timing, annuities, long-term care planning, " +
					"college savings, 529 plans, charitable giving, donor-advised funds, cash flow planning, net worth statements, " +
					"portfolio reviews, risk tolerance, asset allocation, financial roadmap, generational wealth, family office services, " +
					"business succession planning, insurance reviews, required minimum distributions, legacy planning, " +
					"retirement calculators, wealth transfer, certified financial planner, CFP, goals-based planning, " +
					"retirement readiness, planning meetings, financial plans"},
			{"payment processing",
				"merchants, restaurants, retailers, ecommerce stores, independent sales organizations, service businesses",
				"payment processing, merchant accounts, card acquiring, credit card processing, point of sale terminals, " +
					"card readers, interchange fees, interchange-plus pricing, settlement, chargebacks, chargeback management, " +
					"PCI compliance, contactless payments, tap to pay, EMV chip, payment terminals, ACH processing, " +
					"recurring payments, virtual terminal, hosted payment pages, tokenization, fraud screening, payouts, " +
					"same-day funding, high-risk merchants, ISO partners, payment facilitator, merchant statements, " +
					"gift cards, surcharging, cash discount programs, mobile payments, QR code payments, level 3 data, " +
					"multi-currency acceptance, merchant onboarding, reconciliation, " +
					"card processing rates, POS systems, merchant deposits"},
			{"consumer and business lending",
				"borrowers, small businesses, homeowners, car buyers, contractors, franchise owners",
				"personal loans, business loans, lines of credit, loan applications, underwriting, credit scores, " +
					"credit checks, debt consolidation, loan origination, equipment financing, invoice factoring, merchant cash advance, " +
					"SBA loans, working capital loans, term loans, auto loans, home equity loans, mortgage brokers, " +
					"refinancing, loan servicing, repayment schedules, APR, prequalification, soft credit pull, collateral, " +
					"loan officers, debt collection, collections agency, credit repair, credit counseling, bridge loans, " +
					"asset-based lending, revenue-based financing, loan approvals, fast funding, installment loans, " +
					"loan calculators, lending decisions, loan terms, borrower portal, funding timelines, " +
					"credit lines for business"},
			{"accounting and tax services",
				"small businesses, self-employed professionals, startups, real estate investors, nonprofits, families",
				"accounting services, bookkeeping, tax preparation, tax returns, tax planning, payroll services, " +
					"CPA firm, certified public accountants, chartered accountants, audits, financial statements, " +
					"year-end accounts, VAT returns, sales tax filings, quarterly estimates, IRS representation, tax resolution, " +
					"outsourced CFO, fractional CFO, management accounts, cash flow statements, QuickBooks, Xero, " +
					"cloud accounting, entity formation, S corporation elections, R&D tax credits, international tax, " +
					"expat tax returns, estate tax, bookkeeping cleanup, accounts reconciliation, 1099 filings, " +
					"forensic accounting, business valuations, due diligence, " +
					"tax deadlines, bookkeeping packages, accounting firm, small business accounting, payroll filings, " +
					"tax advisory"},
		},
	},
	{
		label: "FINTECH", weight: 3, arch: archSoftware,
		kinds:   "fintech company, financial technology company, payments startup",
		names:   "Pay, Money, Wallet, Cash, Ledger",
		models:  "B2C:5 B2B:5",
		related: "FINANCIAL_SERVICES BANKING SAAS",
		vendors: "plaid.com stripe.com segment.com onfido.com sumsub.com intercom.com",
		terms: "fintech, digital finance, mobile app, financial technology, money management, instant transfers, " +
			"regulated entities, licensed money transmitter, secure payments, open banking, banking APIs, KYC verification, account opening, " +
			"transaction history, fees, users, card issuing, financial inclusion, real-time notifications, compliance",
		niches: []nicheSpec{
			{"neobanking",
				"millennials, freelancers, small business owners, students, gig workers, expats",
				"digital bank account, neobank, mobile banking app, debit card, virtual cards, savings pots, round-ups, " +
					"early direct deposit, fee-free ATM withdrawals, overdraft protection, budgeting tools, spending insights, " +
					"instant notifications, joint accounts, teen accounts, business checking, multi-currency accounts, " +
					"foreign exchange rates, international transfers, cash back rewards, high-yield savings, FDIC insured, " +
					"deposit protection, card freeze, salary advance, bill splitting, peer-to-peer payments, subscription tracking, " +
					"credit builder card, paperless onboarding, in-app support, metal card, expense categories, savings goals, " +
					"account switching, Apple Pay, Google Pay, " +
					"banking app features, instant card issuance, mobile account"},
			{"payment APIs",
				"developers, marketplaces, platforms, SaaS companies, ecommerce businesses, enterprises",
				"payments API, checkout API, payment orchestration, payouts API, embedded payments, embedded finance, " +
					"card issuing API, virtual card issuing, banking as a service, BaaS, ledger API, payment links, " +
					"marketplace payments, split payments, escrow, real-time payments, RTP, FedNow, SEPA instant, " +
					"open banking payments, account-to-account payments, pay by bank, payment routing, authorization rates, " +
					"3D Secure, network tokens, webhooks for payments, sandbox environment, developer docs, SDKs for payments, " +
					"payment reconciliation, FX API, cross-border payouts, mass payouts, connected accounts, KYB onboarding, " +
					"API keys, payment intents, idempotency keys, checkout SDK"},
			{"crypto and digital assets",
				"crypto investors, traders, institutions, DeFi users, Web3 developers, token issuers",
				"cryptocurrency exchange, bitcoin, ethereum, stablecoins, crypto wallet, custody, cold storage, " +
					"hardware wallets, staking, DeFi protocols, decentralized exchange, liquidity pools, tokenization, " +
					"blockchain infrastructure, smart contracts, NFT marketplace, on-ramp, off-ramp, crypto payments, " +
					"crypto trading, order book, market making, crypto lending, yield products, proof of reserves, " +
					"wallet security, seed phrases, multi-signature wallets, MPC custody, blockchain analytics, " +
					"crypto compliance, travel rule, token launch, Layer 2 networks, gas fees, crypto tax reporting, " +
					"digital asset management, Web3 wallet, " +
					"crypto exchange app, token listings, blockchain wallets"},
			{"buy now pay later and consumer credit",
				"online shoppers, retailers, ecommerce merchants, consumers, home improvement stores, healthcare practices",
				"buy now pay later, BNPL, pay in four, installment payments, point-of-sale financing, checkout financing, " +
					"interest-free installments, consumer credit, instant approval, soft credit check, credit limits, " +
					"merchant integration, increased average order value, conversion uplift, repayment reminders, " +
					"virtual credit card, shopping app, deals and rewards, late fees, affordability checks, responsible lending, " +
					"credit decisioning, alternative credit data, cash flow underwriting, patient financing, " +
					"home improvement financing, lease-to-own, rent-to-own, earned wage access, paycheck advance, " +
					"credit line app, credit score monitoring, debt repayment, spending limits, split payments, " +
					"pay later checkout, installment plans, credit approvals, flexible repayments, point-of-sale loans"},
		},
	},
	{
		label: "BANKING", weight: 2, arch: archFinance, size: 1,
		kinds:   "bank, banking institution, financial institution",
		names:   "Bank, Bancorp, Savings, Trust",
		models:  "B2C:6 B2B:4",
		related: "FINANCIAL_SERVICES FINTECH INVESTMENT_MANAGEMENT",
		vendors: "fiserv.com jackhenry.com q2.com ncino.com salesforce.com adobe.com",
		terms: "banking, bank accounts, deposits, branches, loans, customers, online banking, mobile banking, " +
			"member FDIC, equal housing lender, interest rates, ATMs, relationship managers, financial institution, " +
			"lending, account holders, security center, routing number, bank services",
		niches: []nicheSpec{
			{"retail banking",
				"individuals, families, students, seniors, first-time homebuyers, savers",
				"checking accounts, savings accounts, money market accounts, certificates of deposit, CDs, debit cards, " +
					"credit cards, mortgages, home loans, auto loans, personal banking, branch locations, ATM network, " +
					"overdraft services, direct deposit, bill pay, mobile check deposit, Zelle payments, student accounts, " +
					"kids savings accounts, rewards checking, account opening online, safe deposit boxes, cashier's checks, " +
					"wire transfers, foreign currency exchange, home equity lines, HELOC, first-time homebuyer programs, " +
					"fraud alerts, card controls, e-statements, interest on savings, teller services, drive-through banking, " +
					"personal loans from the bank, savings rates, checking rewards, branch appointments, banking app"},
			{"commercial banking",
				"businesses, corporations, commercial real estate investors, middle-market companies, nonprofits, municipalities",
				"commercial banking, business checking, treasury management, cash management, commercial loans, " +
					"commercial real estate loans, business lines of credit, equipment loans, SBA lending, merchant services, " +
					"remote deposit capture, positive pay, ACH origination, wire services, lockbox services, sweep accounts, " +
					"corporate cards, trade finance, letters of credit, foreign exchange hedging, syndicated loans, " +
					"asset-based lending, construction lending, owner-occupied real estate, relationship banking, " +
					"commercial deposits, escrow services, payroll cards, fraud prevention for business, account reconciliation, " +
					"liquidity management, business online banking, industry banking teams, " +
					"commercial lending team, treasury services, business deposits, cash flow solutions, " +
					"commercial relationship managers, business credit facilities, receivables financing"},
			{"community banks and credit unions",
				"members, local families, farmers, small businesses, rural communities, churches",
				"community bank, credit union, member-owned, local decision making, hometown bank, membership eligibility, " +
					"share savings, share certificates, dividends, agricultural loans, farm loans, small business loans, " +
					"community reinvestment, local lending, financial literacy, branch staff, shared branching, " +
					"holiday club accounts, youth savings, auto refinancing, low-rate credit cards, member services, " +
					"board of directors, annual meeting, community events, scholarships, local charities, NCUA insured, " +
					"surcharge-free ATMs, personal service, neighborhood branches, relationship lending, mortgage servicing, " +
					"church loans, credit union membership, " +
					"local credit union, member dividends, community lending, co-op ATMs, member loans"},
			{"private banking",
				"high-net-worth individuals, entrepreneurs, family offices, executives, professionals, trusts and estates",
				"private banking, private bankers, wealth advisory, bespoke lending, securities-based lending, " +
					"jumbo mortgages, trust services, estate administration, fiduciary services, custody services, " +
					"investment management, concierge banking, dedicated relationship manager, private client services, " +
					"lombard loans, art financing, yacht financing, aircraft financing, liquidity planning, " +
					"multi-generational wealth, philanthropy advisory, family governance, offshore banking, " +
					"international private banking, discretionary mandates, tax-advantaged strategies, pre-IPO liquidity, " +
					"executive compensation planning, alternative investments access, premium cards, private client events, " +
					"confidentiality, family office banking, " +
					"private wealth clients, bespoke credit, private client team, wealth structuring, succession banking, " +
					"private wealth banking, wealth lending"},
		},
	},
	{
		label: "INSURANCE", weight: 3, arch: archFinance,
		kinds:   "insurance company, insurance agency, insurance broker",
		names:   "Insurance, Assurance, Insure, Mutual, Underwriters",
		models:  "B2C:6 B2B:4",
		related: "FINANCIAL_SERVICES HEALTHCARE FINTECH",
		vendors: "guidewire.com duckcreek.com salesforce.com docusign.com vertafore.com",
		terms: "insurance, coverage, policies, claims, premiums, quotes, insurance agents, policyholders, deductibles, " +
			"underwriting, risk, protection, carriers, licensed agents, policy documents, claims support, renewals, " +
			"get a quote, insurance brokers",
		niches: []nicheSpec{
			{"auto and home insurance",
				"drivers, homeowners, renters, families, young drivers, landlords",
				"auto insurance, car insurance, homeowners insurance, renters insurance, liability coverage, collision coverage, " +
					"comprehensive coverage, uninsured motorist coverage, roadside assistance, rental car reimbursement, " +
					"accident forgiveness, safe driver discounts, bundling discounts, multi-car discount, telematics, " +
					"usage-based insurance, SR-22 filings, dwelling coverage, personal property coverage, flood insurance, " +
					"earthquake insurance, umbrella policy, landlord insurance, condo insurance, claims adjusters, " +
					"windshield repair, total loss, home inventory, water damage claims, storm damage, replacement cost, " +
					"policy bundles, motorcycle insurance, boat insurance, RV insurance, classic car insurance, " +
					"car insurance quotes, home insurance claims, policy discounts, home and auto bundles, claims app"},
			{"health and benefits insurance",
				"employers, individuals, families, Medicare beneficiaries, HR managers, self-employed workers",
				"health insurance, health plans, medical coverage, dental insurance, vision insurance, Medicare Advantage, " +
					"Medicare supplement, ACA marketplace plans, open enrollment, special enrollment, provider networks, " +
					"in-network doctors, copays, coinsurance, out-of-pocket maximum, HSA-eligible plans, health savings accounts, " +
					"group health insurance, employee benefits, benefits broker, short-term disability, long-term disability, " +
					"critical illness insurance, accident insurance, hospital indemnity, prescription coverage, formulary, " +
					"telehealth benefits, wellness programs, self-funded plans, stop-loss insurance, benefits enrollment, " +
					"member ID cards, prior authorization, COBRA coverage, " +
					"health plan options, benefits packages, plan comparisons, dental plans, vision plans, " +
					"wellness incentives"},
			{"commercial insurance",
				"small businesses, contractors, manufacturers, restaurants, technology companies, transportation companies",
				"commercial insurance, business insurance, general liability, professional liability, errors and omissions, " +
					"workers compensation, commercial property, business owners policy, BOP, commercial auto, " +
					"cyber liability insurance, directors and officers insurance, D&O, employment practices liability, " +
					"product liability, surety bonds, contractor bonds, inland marine, builders risk, business interruption, " +
					"trucking insurance, cargo insurance, fleet insurance, restaurant insurance, certificates of insurance, " +
					"risk management services, loss control, specialty insurance, excess and surplus lines, captive insurance, " +
					"commercial umbrella, liquor liability, garage liability, premium audits, industry programs, " +
					"business insurance quotes, liability limits, commercial policies, risk engineering, claims advocacy, " +
					"commercial packages, cyber coverage"},
			{"life insurance and annuities",
				"families, parents, retirees, business partners, mortgage holders, estate planners",
				"life insurance, term life insurance, whole life insurance, universal life insurance, indexed universal life, " +
					"final expense insurance, burial insurance, no-exam life insurance, death benefit, beneficiaries, " +
					"cash value, policy loans, riders, accelerated death benefit, waiver of premium, mortgage protection, " +
					"key person insurance, buy-sell agreements, annuities, fixed annuities, indexed annuities, " +
					"variable annuities, guaranteed income, income riders, surrender charges, life insurance quotes, " +
					"medical underwriting, policy illustrations, estate liquidity, survivorship life, child life insurance, " +
					"group life insurance, term conversion, living benefits, legacy protection, " +
					"life insurance policies, annuity rates, term lengths, policy conversions, income annuities, " +
					"legacy planning tools, coverage amounts"},
		},
	},
	{
		label: "INVESTMENT_MANAGEMENT", weight: 3, arch: archFinance,
		kinds:   "investment firm, asset manager, investment management firm",
		names:   "Capital, Investments, Wealth, Asset, Funds",
		models:  "B2B:6 B2C:4",
		related: "FINANCIAL_SERVICES BANKING REAL_ESTATE",
		vendors: "salesforce.com docusign.com carta.com dealcloud.com intralinks.com",
		terms: "investment management, investors, portfolio, assets under management, investment strategy, returns, " +
			"capital, funds, investment team, track record, due diligence, limited partners, risk-adjusted returns, " +
			"investment philosophy, disclosures, performance, fund documents, allocation, long-term value",
		niches: []nicheSpec{
			{"venture capital",
				"startup founders, seed-stage companies, limited partners, angel investors, accelerators, university spinouts",
				"venture capital, seed funding, pre-seed rounds, Series A, Series B, startup investing, term sheets, " +
					"cap tables, convertible notes, SAFEs, lead investor, follow-on investments, portfolio companies, " +
					"founder support, board seats, fund vehicles, deal flow, pitch decks, startup valuation, pro rata rights, " +
					"venture debt, growth-stage investing, thesis-driven investing, deep tech investing, climate tech fund, " +
					"fintech fund, B2B software investing, demo day, accelerator program, founder network, portfolio support, " +
					"exits, acquisitions, IPOs, carried interest, fund returns, " +
					"venture fund, startup portfolio, seed checks, founder office hours, investment committee, " +
					"venture partners"},
			{"private equity",
				"business owners, management teams, family businesses, institutional investors, pension funds, corporate sellers",
				"private equity, buyouts, leveraged buyouts, growth equity, management buyouts, recapitalization, " +
					"add-on acquisitions, buy-and-build strategy, platform companies, operating partners, value creation plans, " +
					"EBITDA growth, deal sourcing, LOI, quality of earnings, holding period, exit strategy, secondary buyouts, " +
					"lower middle market, middle market, carve-outs, succession solutions, minority investments, " +
					"portfolio operations, 100-day plans, fund raising, limited partner agreements, co-investment, " +
					"continuation funds, sector specialization, family-owned business transitions, debt financing, " +
					"senior lenders, mezzanine financing, dividend recaps, " +
					"PE fund, portfolio company operations, acquisition criteria, holding company, equity partners, " +
					"add-on deals, sponsor-backed companies"},
			{"hedge funds and trading",
				"institutional investors, pension funds, endowments, family offices, sovereign wealth funds, accredited investors",
				"hedge funds, long/short equity, global macro, quantitative strategies, systematic trading, market neutral, " +
					"event-driven strategies, merger arbitrage, credit strategies, distressed debt, volatility trading, " +
					"commodities trading, managed futures, CTA strategies, algorithmic trading, prime brokerage, " +
					"risk management systems, alpha generation, drawdowns, Sharpe ratio, leverage, short selling, derivatives, " +
					"options strategies, fund administration, net asset value, high-water mark, performance fees, " +
					"investor letters, monthly returns, multi-strategy fund, capital introduction, liquidity terms, " +
					"redemption notices, backtesting, factor models, " +
					"trading desk, fund strategies, risk limits, portfolio hedging, absolute return, trading systems, " +
					"liquid alternatives"},
			{"asset and fund management",
				"retail investors, financial advisors, pension schemes, insurance companies, charities, corporate treasurers",
				"asset management, mutual funds, ETFs, index funds, active management, fixed income funds, bond funds, " +
					"equity funds, multi-asset funds, model portfolios, robo-advisor, separately managed accounts, " +
					"fund factsheets, expense ratios, fund prospectus, ESG investing, sustainable funds, impact investing, " +
					"dividend strategies, income funds, money market funds, target-date funds, fund ratings, " +
					"institutional mandates, liability-driven investing, pension fund management, fund distribution, " +
					"UCITS funds, fund platforms, stewardship, proxy voting, benchmark indices, tracking error, " +
					"portfolio managers, research analysts, outsourced CIO, " +
					"fund range, investment products, fund managers, portfolio construction, income strategies, " +
					"fund documents library, multi-asset solutions"},
		},
	},
	{
		label: "REAL_ESTATE", weight: 5, arch: archServices, size: -1,
		kinds:   "real estate company, real estate agency, property company",
		names:   "Realty, Properties, Homes, Estates, Realtors",
		models:  "B2C:6 B2B:4",
		related: "CONSTRUCTION FINANCIAL_SERVICES ARCHITECTURE_DESIGN",
		vendors: "zillow.com appfolio.com buildium.com matterport.com docusign.com yardi.com",
		terms: "real estate, properties, property listings, buyers and sellers, tenants, landlords, property values, " +
			"square feet, neighborhoods, locations, local market, real estate agents, viewings, floor plans, " +
			"property management, rentals, investment properties, market reports, amenities",
		niches: []nicheSpec{
			{"residential brokerage",
				"home buyers, home sellers, first-time buyers, relocating families, downsizers, luxury buyers",
				"homes for sale, listing agents, buyer's agents, home valuation, comparative market analysis, open houses, " +
					"home staging, virtual tours, MLS listings, offers and negotiation, closing process, escrow, " +
					"mortgage pre-approval, home inspections, appraisals, luxury homes, condos for sale, townhomes, " +
					"new construction homes, relocation services, neighborhood guides, school districts, listing photography, " +
					"drone photography, just listed, just sold, price reductions, seller disclosures, curb appeal, " +
					"bidding wars, contingencies, closing costs, home warranty, realtor commissions, brokerage team, " +
					"luxury real estate marketing, waterfront properties, " +
					"home search, listing presentations, real estate brokerage, buyer consultations, market updates"},
			{"commercial real estate",
				"businesses, investors, developers, retailers, industrial occupiers, corporate tenants",
				"commercial real estate, office space, office leasing, industrial property, warehouses, logistics parks, " +
					"retail space, shopping centers, tenant representation, landlord representation, investment sales, " +
					"cap rates, net operating income, triple net leases, NNN properties, sale-leaseback, 1031 exchange, " +
					"flex space, medical office buildings, mixed-use developments, site selection, lease negotiation, " +
					"build-to-suit, coworking spaces, coworking memberships, commercial appraisals, property brochures, " +
					"tenant improvements, occupancy rates, absorption, market vacancy, portfolio dispositions, " +
					"commercial brokerage, land sales, data center real estate, " +
					"office availability, industrial leasing, investment properties for sale, lease comps, CRE advisory, " +
					"retail leasing, property tours"},
			{"property management",
				"landlords, rental property investors, HOAs, condo associations, tenants, apartment owners",
				"property management, rental management, tenant screening, rent collection, online rent payments, " +
					"lease agreements, maintenance requests, property inspections, move-in inspections, security deposits, " +
					"eviction services, owner statements, vacancy marketing, rental listings, rental pricing analysis, " +
					"HOA management, association dues, community association management, multifamily management, " +
					"apartment communities, short-term rentals, vacation rental management, Airbnb management, " +
					"tenant portal, owner portal, work orders, vendor coordination, 24/7 maintenance, lease renewals, " +
					"turnover cleaning, rental income, property accounting, single-family rentals, student housing, " +
					"rental homes, tenant communication, property maintenance team, rent roll, management agreement, " +
					"occupancy management"},
			{"real estate development",
				"investors, municipalities, homebuyers, joint venture partners, lenders, communities",
				"real estate development, land acquisition, entitlements, zoning approvals, master-planned communities, " +
					"residential developments, multifamily development, build-to-rent, mixed-use projects, urban infill, " +
					"adaptive reuse, affordable housing, senior living communities, student housing development, " +
					"development pipeline, construction financing, project feasibility, site planning, pre-sales, " +
					"off-plan sales, show homes, model units, project marketing, placemaking, amenities design, " +
					"sustainable buildings, LEED certification, public-private partnerships, opportunity zones, " +
					"development partners, joint ventures, phased development, lot sales, community amenities, " +
					"development projects, residential towers, townhome communities, land development, " +
					"construction milestones, project sales center, urban regeneration"},
		},
	},
}

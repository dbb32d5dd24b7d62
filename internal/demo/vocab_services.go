package demo

var serviceIndustries = []industrySpec{
	{
		label: "HEALTHCARE", weight: 6, arch: archHealth,
		kinds:   "healthcare provider, medical practice, clinic",
		names:   "Health, Care, Medical, Clinic, Physicians",
		models:  "B2C:8 B2B:2",
		related: "MEDICAL_DEVICES PHARMACEUTICALS INSURANCE",
		vendors: "zocdoc.com athenahealth.com epic.com healthgrades.com doxy.me nexhealth.com",
		terms: "healthcare, patients, patient care, clinicians, medical care, appointments, insurance accepted, " +
			"health outcomes, treatment plans, providers, new patients welcome, patient portal, " +
			"board-certified physicians, compassionate care, referrals, health records, HIPAA, locations and hours",
		niches: []nicheSpec{
			{"dental care",
				"families, children, adults, seniors, nervous patients, orthodontic patients",
				"dentist, dental practice, dental cleanings, checkups, teeth whitening, dental implants, crowns, " +
					"bridges, veneers, porcelain veneers, root canal treatment, tooth extractions, wisdom teeth removal, " +
					"orthodontics, braces, clear aligners, Invisalign, pediatric dentistry, cosmetic dentistry, " +
					"dentures, gum disease treatment, periodontal care, dental hygienist, fillings, tooth-colored fillings, " +
					"emergency dental care, sedation dentistry, smile makeover, dental x-rays, mouthguards, " +
					"oral cancer screening, dental insurance plans, " +
					"dental clinic, family dentistry, dental team, dental appointments, dental treatments, teeth cleaning, " +
					"oral health, dental care plans"},
			{"home care and senior living",
				"seniors, aging parents, adult children, veterans, people with disabilities, hospital discharge patients",
				"home care, in-home care, caregivers, personal care aides, companion care, respite care, " +
					"dementia care, Alzheimer's care, memory care, assisted living, senior living community, " +
					"skilled nursing, nursing homes, hospice care, palliative care, home health aides, " +
					"medication reminders, meal preparation, bathing assistance, mobility assistance, fall prevention, " +
					"24-hour care, live-in caregivers, care plans, family caregivers, post-hospital care, " +
					"long-term care insurance, adult day care, independent living, " +
					"senior care, elder care, care services, home care agency, caregiving, senior living options, " +
					"care homes, assisted living facilities, home care services, care coordinators, aging parents support"},
			{"telehealth",
				"busy professionals, rural patients, parents, students, employers, people without a primary doctor",
				"telehealth, telemedicine, virtual visits, video consultations, online doctor, urgent care online, " +
					"e-prescriptions, prescription refills, virtual primary care, remote patient monitoring, " +
					"chronic care management, digital health platform, symptom checker, on-demand doctors, " +
					"24/7 virtual care, online dermatology, virtual urgent care, weight management program, " +
					"GLP-1 programs, sexual health, online therapy appointments, lab orders, at-home test kits, " +
					"care coordination, asynchronous visits, secure messaging with doctors, employer telehealth benefit, " +
					"virtual doctor, online consultations, telehealth platform, virtual care, video visits, " +
					"online prescriptions, remote care, digital clinic, virtual appointments, health app, " +
					"online medical advice, telehealth visits, digital prescriptions"},
			{"mental health services",
				"adults, teens, couples, families, veterans, employees",
				"mental health, therapy, psychotherapy, counseling, licensed therapists, psychologists, psychiatrists, " +
					"psychiatric evaluation, medication management, anxiety treatment, depression treatment, " +
					"trauma therapy, PTSD, EMDR, cognitive behavioral therapy, CBT, DBT, couples counseling, " +
					"family therapy, teen counseling, ADHD assessment, eating disorder treatment, addiction treatment, " +
					"substance use recovery, intensive outpatient program, group therapy, mindfulness, " +
					"sliding scale fees, online therapy, crisis support, " +
					"mental health care, therapy sessions, counseling services, mental wellness, therapists near me, " +
					"mental health support, psychiatric care, therapy practice, behavioral health, emotional wellbeing, " +
					"anxiety support"},
			{"specialty clinics",
				"patients, athletes, referring physicians, seniors, women, children",
				"orthopedic clinic, sports medicine, physical therapy, physiotherapy, chiropractic care, " +
					"dermatology clinic, skin cancer screening, dermatologists, eye care, optometrists, ophthalmology, " +
					"cataract surgery, LASIK, cardiology, women's health, OB/GYN, fertility clinic, IVF, pediatrics, " +
					"urgent care center, walk-in clinic, imaging center, MRI scans, ultrasound, allergy testing, " +
					"podiatry, pain management, sleep clinic, hearing aids, audiology, " +
					"specialist doctors, specialty care, outpatient clinic, clinic specialists, specialist appointments, " +
					"medical specialists, diagnostic services, clinic locations, specialist consultations, " +
					"treatment options, patient referrals"},
		},
	},
	{
		label: "PHARMACEUTICALS", weight: 2, arch: archHealth, size: 1,
		kinds:   "pharmaceutical company, drug developer, pharmacy business",
		names:   "Pharma, Medicines, Rx, Apothecary",
		models:  "B2B:6 B2C:4",
		related: "BIOTECHNOLOGY HEALTHCARE CHEMICALS",
		vendors: "veeva.com iqvia.com medidata.com salesforce.com mastercontrol.com",
		terms: "pharmaceuticals, medicines, drugs, patients, clinical data, FDA, EMA, regulatory approval, " +
			"GMP, therapeutic areas, prescribing information, safety information, pipeline, healthcare professionals, " +
			"product portfolio, pharmacovigilance, quality",
		niches: []nicheSpec{
			{"generic and specialty drugs",
				"pharmacies, wholesalers, hospitals, payers, distributors, healthcare systems",
				"generic drugs, generic medicines, biosimilars, specialty pharmaceuticals, ANDA approvals, " +
					"bioequivalence studies, tablets, capsules, injectables, sterile injectables, oral solids, " +
					"controlled substances, oncology generics, drug shortages, product catalog, NDC codes, " +
					"wholesale distribution, hospital formulary, 505(b)(2), drug pricing, supply agreements, " +
					"authorized generics, extended-release formulations, ophthalmic products, dermatology products, " +
					"branded generics, over-the-counter medicines, OTC products, private label OTC, " +
					"drug products, pharmaceutical products, generics portfolio, drug manufacturing, drug supply, " +
					"specialty medicines, medicine portfolio, injectable products, generic pipeline, drug approvals, " +
					"unit-dose packaging"},
			{"contract manufacturing and CDMO",
				"pharma companies, biotech startups, virtual drug developers, generic makers, consumer health brands, research institutes",
				"CDMO, contract development and manufacturing, CMO, formulation development, analytical development, " +
					"API manufacturing, active pharmaceutical ingredients, fill and finish, aseptic filling, lyophilization, " +
					"tech transfer, scale-up manufacturing, clinical trial supplies, commercial manufacturing, " +
					"GMP facilities, cGMP compliance, batch records, stability studies, method validation, " +
					"serialization, packaging and labeling, cold chain logistics, highly potent APIs, " +
					"softgel manufacturing, nasal sprays, regulatory filings, CMC documentation, audits and inspections, " +
					"drug manufacturing services, pharmaceutical manufacturing, manufacturing sites, development services, " +
					"clinical manufacturing, production batches, manufacturing capacity, quality systems, " +
					"drug product manufacturing, process development, drug substance, pharma outsourcing"},
			{"pharmacies",
				"patients, families, seniors, caregivers, long-term care facilities, clinics",
				"pharmacy, retail pharmacy, community pharmacy, prescriptions, prescription transfers, " +
					"prescription delivery, mail-order pharmacy, specialty pharmacy, compounding pharmacy, " +
					"pharmacists, medication therapy management, vaccinations, flu shots, immunizations, " +
					"blister packaging, medication synchronization, automatic refills, insurance billing, " +
					"prior authorizations, patient counseling, over-the-counter products, vitamins and supplements, " +
					"long-term care pharmacy, infusion pharmacy, pet medications, drive-thru pharmacy, refill app, " +
					"local pharmacy, pharmacy services, pharmacy team, medication reviews, pharmacy app, health products, " +
					"prescription pickup, pharmacy hours, medicine advice, health checks, vaccine appointments, " +
					"pharmacy counter services, compounded medications"},
		},
	},
	{
		label: "BIOTECHNOLOGY", weight: 2, arch: archHealth,
		kinds:   "biotechnology company, biotech startup, life sciences company",
		names:   "Biotech, Therapeutics, Biosciences, Genomics",
		models:  "B2B:9 B2C:1",
		related: "PHARMACEUTICALS HEALTHCARE MEDICAL_DEVICES",
		vendors: "benchling.com veeva.com medidata.com salesforce.com greenhouse.io",
		terms: "biotechnology, life sciences, research, science, scientists, discovery, preclinical, clinical trials, " +
			"pipeline, platform technology, publications, investors, collaborations, unmet medical need, " +
			"patients, laboratory, innovation pipeline, patents",
		niches: []nicheSpec{
			{"gene and cell therapy",
				"patients with rare diseases, oncologists, hospitals, pharma partners, investors, patient advocacy groups",
				"gene therapy, cell therapy, CAR-T, CRISPR, gene editing, base editing, AAV vectors, lentiviral vectors, " +
					"viral vector manufacturing, rare diseases, genetic disorders, T cells, NK cells, stem cells, " +
					"induced pluripotent stem cells, regenerative medicine, autologous therapy, allogeneic therapy, " +
					"IND-enabling studies, first-in-human trial, orphan drug designation, dosing, durability, " +
					"delivery technology, lipid nanoparticles, mRNA, RNA therapeutics, siRNA, antisense oligonucleotides, " +
					"biomarkers, " +
					"genetic medicines, cell therapies, gene therapies, cell therapy manufacturing, therapeutic genes, " +
					"cell engineering, vector production, cell therapy trials, gene delivery, curative therapies, " +
					"genetic diseases"},
			{"antibody and drug discovery",
				"pharma partners, academic labs, oncology researchers, investors, clinicians, biotech collaborators",
				"drug discovery, antibody discovery, monoclonal antibodies, bispecific antibodies, antibody-drug conjugates, " +
					"ADCs, small molecules, target identification, target validation, hit-to-lead, lead optimization, " +
					"high-throughput screening, protein engineering, structural biology, medicinal chemistry, " +
					"immuno-oncology, oncology pipeline, autoimmune diseases, inflammation, computational drug design, " +
					"AI drug discovery, phage display, in vivo models, pharmacokinetics, toxicology studies, " +
					"licensing deals, milestone payments, research collaborations, " +
					"discovery platform, drug candidates, antibody engineering, therapeutic antibodies, " +
					"discovery programs, preclinical candidates, drug targets, lead compounds, molecule design, " +
					"discovery biology, assay screening, development candidates"},
			{"genomics and diagnostics",
				"clinicians, hospitals, researchers, pharma companies, patients, reference labs",
				"genomics, DNA sequencing, next-generation sequencing, NGS, whole genome sequencing, exome sequencing, " +
					"genetic testing, molecular diagnostics, PCR tests, liquid biopsy, cancer screening, " +
					"companion diagnostics, pharmacogenomics, prenatal testing, newborn screening, carrier screening, " +
					"bioinformatics, variant interpretation, sequencing services, single-cell sequencing, spatial biology, " +
					"proteomics, biomarker discovery, CLIA lab, CAP accreditation, sample collection kits, " +
					"turnaround time, genetic counseling, precision medicine, " +
					"genetic tests, diagnostic tests, genomic data, test results, sequencing technology, diagnostic lab, " +
					"genomic testing, cancer diagnostics, genetic analysis, test kits, clinical genomics"},
			{"lab services and research tools",
				"academic researchers, pharma labs, biotech companies, core facilities, CROs, universities",
				"contract research organization, CRO services, preclinical CRO, bioanalytical services, assay development, " +
					"cell-based assays, lab reagents, antibodies for research, cell lines, cell culture media, " +
					"lab consumables, pipettes, laboratory instruments, lab automation, liquid handling, " +
					"biobanking, sample storage, cryogenic storage, lab animal models, histology services, " +
					"flow cytometry, microscopy, protein production, custom peptides, oligo synthesis, " +
					"lab software, electronic lab notebook, LIMS, " +
					"research products, lab services, laboratory supplies, research reagents, lab equipment, " +
					"scientific instruments, research services, assay kits, cell culture, lab testing services, " +
					"research antibodies, custom assays"},
		},
	},
	{
		label: "MEDICAL_DEVICES", weight: 2, arch: archHealth,
		kinds:   "medical device company, medtech company, medical equipment maker",
		names:   "Medtech, Surgical, Diagnostics, Orthopedics",
		models:  "B2B:9 B2C:1",
		related: "HEALTHCARE BIOTECHNOLOGY HARDWARE_ELECTRONICS",
		vendors: "greenlight.guru mastercontrol.com salesforce.com veeva.com sap.com",
		terms: "medical devices, medtech, clinicians, hospitals, FDA clearance, 510(k), CE mark, ISO 13485, " +
			"clinical evidence, patient safety, product training, distributors, regulatory affairs, " +
			"instructions for use, healthcare providers, device innovation, quality system",
		niches: []nicheSpec{
			{"surgical and orthopedic devices",
				"surgeons, hospitals, ambulatory surgery centers, orthopedic practices, sports medicine clinics, distributors",
				"surgical instruments, orthopedic implants, joint replacement, knee implants, hip implants, " +
					"spinal implants, spine surgery systems, trauma plates, bone screws, arthroscopy, " +
					"minimally invasive surgery, laparoscopic instruments, robotic surgery systems, surgical staplers, " +
					"energy devices, electrosurgery, sutures, wound closure, surgical navigation, 3D-printed implants, " +
					"sterilization trays, reusable instruments, single-use instruments, surgeon training, cadaver labs, " +
					"OR efficiency, implant inventory, bone graft substitutes, " +
					"surgical products, implant systems, orthopedic devices, surgical tools, surgical solutions, " +
					"surgical procedures, operating room, orthopedic surgeons, implant designs, surgical kits, " +
					"instrument sets, surgical outcomes"},
			{"diagnostic and imaging equipment",
				"radiology departments, labs, clinics, hospitals, imaging centers, point-of-care sites",
				"diagnostic imaging, MRI systems, CT scanners, ultrasound systems, portable ultrasound, X-ray systems, " +
					"digital radiography, mammography, PACS, imaging software, in vitro diagnostics, IVD, analyzers, " +
					"point-of-care testing, rapid tests, blood gas analyzers, hematology analyzers, immunoassays, " +
					"test cartridges, reagent kits, lab instruments service, AI radiology, image reconstruction, " +
					"contrast injectors, detector panels, equipment service contracts, refurbished imaging equipment, " +
					"imaging equipment, diagnostic equipment, imaging systems, diagnostic devices, medical imaging, " +
					"imaging solutions, lab analyzers, diagnostic solutions, imaging services, radiology equipment, " +
					"scanner installation, diagnostic accuracy, imaging workflow"},
			{"patient monitoring and wearables",
				"hospitals, ICUs, home health agencies, patients, cardiologists, payers",
				"patient monitoring, vital signs monitors, ECG monitors, wearable ECG, cardiac monitoring, " +
					"continuous glucose monitors, insulin pumps, pulse oximeters, blood pressure monitors, " +
					"remote monitoring devices, wearable sensors, fall detection, sleep monitoring, respiratory devices, " +
					"CPAP machines, ventilators, infusion pumps, telemetry, alarm management, connected medical devices, " +
					"Bluetooth medical devices, home medical equipment, durable medical equipment, DME, " +
					"hearing devices, mobility aids, wheelchairs, " +
					"monitoring devices, wearable devices, monitoring systems, patient data, vital signs, " +
					"wearable technology, remote patient monitoring platform, monitoring solutions, health wearables, " +
					"patient alarms, clinical monitoring, medical sensors, home monitoring"},
		},
	},
	{
		label: "EDUCATION", weight: 5, arch: archPublic, size: -1,
		kinds:   "education provider, school, learning company",
		names:   "Academy, Learning, School, Education, Institute, Tutors",
		models:  "B2C:6 B2B:2 B2G:2",
		related: "NONPROFIT MEDIA_PUBLISHING SOFTWARE",
		vendors: "instructure.com blackboard.com zoom.us teachable.com thinkific.com kajabi.com powerschool.com",
		terms: "education, learning, students, teachers, courses, curriculum, enrollment, admissions, " +
			"programs, classes, qualifications, learners, faculty, academic calendar, tuition, scholarships, " +
			"learning outcomes, campus",
		niches: []nicheSpec{
			{"K-12 schools",
				"parents, students, families, school districts, teachers, admissions offices",
				"private school, independent school, elementary school, middle school, high school, kindergarten, " +
					"preschool, early years, admissions process, school tours, open house, tuition fees, " +
					"financial aid, school calendar, extracurricular activities, after-school programs, school sports, " +
					"arts program, STEM program, International Baccalaureate, IB diploma, AP courses, " +
					"college counseling, boarding school, day school, school uniforms, parent association, " +
					"student wellbeing, small class sizes, school bus routes, " +
					"school community, school admissions, students and parents, school programs, school facilities, " +
					"learning environment, school day, school fees, grade levels, school activities, primary school, " +
					"secondary school"},
			{"higher education",
				"prospective students, graduate students, international students, alumni, researchers, employers",
				"university, college, undergraduate programs, graduate programs, bachelor's degrees, master's degrees, " +
					"PhD programs, MBA, online degrees, majors and minors, admissions requirements, application deadlines, " +
					"student housing, campus life, research centers, faculty profiles, study abroad, " +
					"international admissions, student visas, career services, alumni network, continuing education, " +
					"executive education, academic departments, research grants, accreditation, commencement, " +
					"degree programs, university admissions, graduate school, academic programs, university research, " +
					"student life, university campus, course catalog, tuition and fees, faculty research, degree courses, " +
					"university rankings, undergraduate admissions"},
			{"online courses and edtech",
				"learners, professionals, teachers, schools, corporate L&D teams, course creators",
				"online courses, e-learning, learning management system, LMS, course platform, video lessons, " +
					"self-paced courses, cohort-based courses, certificates of completion, microlearning, " +
					"learning app, gamified learning, quizzes and assessments, virtual classroom, live classes, " +
					"course marketplace, instructor tools, student progress tracking, adaptive learning, " +
					"corporate training platform, compliance training, upskilling, reskilling, coding bootcamp, " +
					"language learning app, homework help, exam prep platform, education technology, " +
					"online learning, course library, learning platform, online classes, digital learning, " +
					"course catalog online, learning modules, online certificates, course creators, learning experience, " +
					"edtech platform, online training"},
			{"tutoring and test prep",
				"students, parents, high schoolers, college applicants, adult learners, homeschoolers",
				"tutoring, private tutors, online tutoring, math tutoring, reading tutoring, science tutoring, " +
					"test prep, SAT prep, ACT prep, GRE prep, GMAT prep, LSAT prep, exam preparation, practice tests, " +
					"study skills, homework help sessions, learning centers, small group tutoring, summer programs, " +
					"college admissions counseling, essay coaching, language classes, ESL classes, IELTS preparation, " +
					"TOEFL preparation, music lessons, learning differences support, dyslexia support, score guarantee, " +
					"tutoring services, test preparation, tutoring sessions, tutoring center, exam coaching, " +
					"study sessions, test scores, prep courses, one-on-one tutoring, academic coaching, test prep classes"},
		},
	},
	{
		label: "ADVERTISING_MARKETING", weight: 5, arch: archServices, size: -1,
		kinds:   "marketing agency, advertising agency, digital agency",
		names:   "Marketing, Agency, Creative, Ads",
		models:  "B2B:10",
		related: "MEDIA_PUBLISHING CONSULTING SOFTWARE",
		vendors: "hubspot.com semrush.com hootsuite.com sproutsocial.com googleadservices.com hotjar.com",
		terms: "marketing, advertising, brands, campaigns, clients, agency, creative work, results, ROI, " +
			"strategy, case studies, brand awareness, audiences, growth, marketing team, our work, " +
			"award-winning campaigns, full-service agency",
		niches: []nicheSpec{
			{"SEO and content marketing",
				"small businesses, SaaS companies, ecommerce brands, law firms, local businesses, publishers",
				"search engine optimization, SEO audits, keyword research, on-page SEO, technical SEO, link building, " +
					"backlinks, local SEO, Google Business Profile, content marketing, blog writing, content strategy, " +
					"editorial calendar, pillar pages, topic clusters, organic traffic, search rankings, SERP features, " +
					"content audits, copywriting, website content, guest posting, digital PR, schema markup, " +
					"Core Web Vitals, site migrations, SEO reporting, content refresh, " +
					"SEO agency, SEO services, content writing, search visibility, organic growth, SEO strategy, " +
					"content production, keyword rankings, blog content, SEO consultants, website traffic, " +
					"search marketing"},
			{"paid media and performance marketing",
				"ecommerce brands, app developers, lead generation businesses, startups, retailers, B2B companies",
				"pay-per-click, PPC management, Google Ads, search ads, display advertising, programmatic advertising, " +
					"paid social, Facebook ads, Instagram ads, TikTok ads, LinkedIn ads, YouTube ads, retargeting, " +
					"conversion tracking, ROAS, cost per acquisition, landing pages, ad creative testing, media buying, " +
					"performance marketing, affiliate marketing, shopping campaigns, lead generation campaigns, " +
					"attribution, budget pacing, audience targeting, lookalike audiences, bid strategies, " +
					"paid advertising, ad campaigns, media spend, paid search, ad management, campaign optimization, " +
					"online advertising, advertising budget, conversion rates, ad accounts, PPC agency, " +
					"paid media strategy"},
			{"branding and creative",
				"startups, consumer brands, nonprofits, hospitality businesses, corporations, rebranding companies",
				"brand identity, branding agency, logo design, visual identity, brand strategy, brand positioning, " +
					"naming, brand guidelines, packaging design, creative direction, art direction, graphic design, " +
					"illustration, photography, video production, motion design, campaign concepts, TV commercials, " +
					"out-of-home advertising, print ads, rebranding, brand refresh, tone of voice, messaging frameworks, " +
					"website design, UX design, design systems, " +
					"brand design, creative agency, brand campaigns, design studio work, identity systems, " +
					"creative services, visual branding, brand assets, campaign creative, branding projects, " +
					"brand experience, print design, " +
					"brand workshops"},
			{"social media and influencer marketing",
				"consumer brands, restaurants, fashion labels, beauty brands, creators, entertainment companies",
				"social media management, social media strategy, content calendars, community management, " +
					"influencer marketing, influencer campaigns, creator partnerships, UGC content, TikTok marketing, " +
					"Instagram marketing, reels, short-form video content, social listening, engagement rates, " +
					"follower growth, brand ambassadors, giveaways, social commerce, live shopping, " +
					"social media reporting, paid partnerships, creator sourcing, influencer contracts, trend monitoring, " +
					"employee advocacy, LinkedIn content, " +
					"social media agency, social campaigns, social channels, social content, influencer agency, " +
					"social media content, social strategy, content creators network, social growth, brand social media, " +
					"viral campaigns, social ads, " +
					"influencer briefs, social analytics"},
			{"marketing technology and email",
				"marketing teams, ecommerce brands, B2B companies, CMOs, sales teams, agencies",
				"marketing automation, email marketing, email campaigns, newsletters, drip campaigns, lead nurturing, " +
					"CRM setup, HubSpot onboarding, Marketo implementation, marketing operations, lead scoring models, " +
					"landing page builders, A/B testing, personalization engines, SMS campaigns, " +
					"customer journeys, segmentation, deliverability, list hygiene, marketing analytics, " +
					"attribution reporting, martech stack, consent management, event marketing, webinars, " +
					"account-based marketing, ABM campaigns, " +
					"email automation, marketing workflows, CRM integration for marketing, email templates, " +
					"marketing platform, campaign automation, email list growth, marketing data, lifecycle marketing, " +
					"email design, automation flows, martech consulting, " +
					"email deliverability audits"},
		},
	},
	{
		label: "CONSULTING", weight: 5, arch: archServices, size: -1,
		kinds:   "consulting firm, consultancy, advisory firm",
		names:   "Consulting, Advisory, Consultants, Strategy",
		models:  "B2B:9 B2G:1",
		related: "FINANCIAL_SERVICES IT_SERVICES HUMAN_RESOURCES",
		vendors: "hubspot.com salesforce.com calendly.com docusign.com zoom.us",
		terms: "consulting, advisory, clients, consultants, expertise, engagements, insights, recommendations, " +
			"business challenges, industries served, partners, methodology, case studies, results, " +
			"senior advisors, thought leadership, practical solutions, workshops",
		niches: []nicheSpec{
			{"management consulting",
				"CEOs, boards, private equity firms, executive teams, public sector leaders, family businesses",
				"management consulting, strategy consulting, corporate strategy, growth strategy, market entry, " +
					"operating model design, organizational design, cost reduction, performance improvement, " +
					"turnaround and restructuring, post-merger integration, M&A advisory, commercial due diligence, " +
					"pricing strategy, go-to-market strategy, business transformation, strategic planning, " +
					"scenario planning, benchmarking studies, change management, PMO, executive workshops, " +
					"board advisory, value creation, interim management, portfolio strategy, " +
					"strategy projects, management consultants, business strategy, strategic advice, consulting projects, " +
					"transformation programs, executive advisory, strategy work, organizational change, growth plans, " +
					"operating efficiency, strategic reviews, leadership alignment, consulting partners"},
			{"operations and supply chain consulting",
				"manufacturers, distributors, retailers, COOs, logistics managers, healthcare systems",
				"operations consulting, supply chain consulting, lean six sigma, process improvement, operational excellence, " +
					"inventory optimization, network design, sourcing strategy, procurement consulting, S&OP, " +
					"sales and operations planning, demand forecasting, warehouse design, lean manufacturing consulting, " +
					"kaizen events, value stream mapping, 5S, continuous improvement programs, capacity analysis, " +
					"supplier development, spend analysis, logistics consulting, quality consulting, root cause workshops, " +
					"productivity improvement, plant assessments, " +
					"operations improvement, supply chain strategy, supply chain optimization, operations consultants, " +
					"process redesign, logistics optimization, procurement savings, inventory reduction, " +
					"operations assessment, supply chain resilience, production efficiency, lean transformation, " +
					"operations strategy, supply chain analytics"},
			{"technology and digital consulting",
				"CIOs, CTOs, digital leaders, enterprises, banks, insurers",
				"digital transformation consulting, technology strategy, IT strategy, enterprise architecture consulting, " +
					"cloud strategy, data strategy, AI strategy, product management consulting, agile coaching, " +
					"agile transformation, vendor selection, software selection, technology due diligence, " +
					"CRM strategy, customer experience consulting, digital operating model, IT governance, " +
					"program assurance, technology roadmaps, cost optimization for IT, automation strategy, " +
					"cybersecurity advisory, digital maturity assessment, innovation labs, design thinking workshops, " +
					"digital strategy, technology consulting, digital consultants, technology advisory, " +
					"digital initiatives, IT consulting partner, digital roadmap, technology assessments, cloud adoption, " +
					"data platforms advice, digital products, technology transformation, AI adoption, " +
					"enterprise technology, " +
					"IT operating model"},
			{"small business consulting and coaching",
				"small business owners, entrepreneurs, startups, franchisees, solopreneurs, family businesses",
				"business coaching, small business consulting, business plans, startup advisory, executive coaching, " +
					"leadership coaching, sales coaching programs, marketing plans for small business, financial projections, " +
					"pitch deck help, fundraising advisory, franchise consulting, business valuation advice, " +
					"exit planning, succession planning, accountability coaching, mastermind groups, " +
					"business growth workshops, pricing advice, hiring advice, systems and processes, " +
					"SBA loan packaging, grant writing, business mentoring, " +
					"business coach, small business advice, business growth, startup coaching, coaching sessions, " +
					"business strategy for owners, business advisors, business owners coaching, growth coaching, " +
					"entrepreneur coaching, business planning, cash flow advice, marketing coaching, consulting packages, " +
					"one-to-one coaching, " +
					"business health checks"},
		},
	},
	{
		label: "LEGAL_SERVICES", weight: 4, arch: archServices, size: -1,
		kinds:   "law firm, legal practice, legal services provider",
		names:   "Law, Legal, Attorneys, Solicitors, Counsel",
		models:  "B2C:5 B2B:5",
		related: "CONSULTING FINANCIAL_SERVICES HUMAN_RESOURCES",
		vendors: "clio.com docusign.com calendly.com lawpay.com netdocuments.com",
		terms: "law firm, attorneys, lawyers, legal services, clients, legal advice, practice areas, " +
			"free consultation, case results, experienced counsel, litigation, court, legal team, " +
			"attorney-client privilege, bar admissions, representation, contact our office",
		niches: []nicheSpec{
			{"personal injury law",
				"accident victims, injured workers, families, motorcyclists, pedestrians, patients",
				"personal injury lawyer, car accident attorney, truck accident claims, motorcycle accidents, " +
					"slip and fall, premises liability, medical malpractice, wrongful death, workers compensation claims, " +
					"dog bite injuries, brain injury, spinal cord injury, catastrophic injuries, product liability claims, " +
					"insurance claims disputes, settlements, jury verdicts, contingency fees, no fee unless we win, " +
					"case evaluation, pain and suffering, lost wages, medical bills, statute of limitations, " +
					"accident reconstruction, trial lawyers, nursing home abuse, " +
					"injury claims, accident lawyers, injury attorneys, compensation claims, personal injury cases, " +
					"accident claims, injury settlements, legal claims, free case review, injury victims, " +
					"injury lawyers near me, whiplash claims, catastrophic injury lawyers, bicycle accidents"},
			{"corporate and commercial law",
				"businesses, startups, investors, founders, corporations, in-house counsel",
				"corporate law, business formation, LLC formation, shareholder agreements, operating agreements, " +
					"mergers and acquisitions, M&A transactions, venture financing, private placements, securities law, " +
					"commercial contracts, contract review, licensing agreements, joint ventures, corporate governance, " +
					"commercial litigation, business disputes, intellectual property, trademarks, patents, " +
					"trademark registration, data privacy law, GDPR compliance, employment law for employers, " +
					"non-compete agreements, outside general counsel, regulatory compliance, " +
					"business lawyers, corporate attorneys, commercial law firm, business transactions, corporate counsel, " +
					"deal documents, commercial agreements, legal due diligence, corporate transactions, company law, " +
					"business law, " +
					"shareholder disputes, franchise agreements"},
			{"family and estate law",
				"spouses, parents, families, seniors, executors, heirs",
				"family law, divorce attorney, child custody, child support, spousal support, alimony, " +
					"prenuptial agreements, mediation, collaborative divorce, adoption, guardianship, " +
					"domestic violence protection, estate planning attorney, wills, living trusts, probate, " +
					"estate administration, powers of attorney, healthcare directives, elder law, Medicaid planning, " +
					"special needs trusts, trust litigation, estate disputes, inheritance, asset protection, " +
					"family court, " +
					"family lawyers, divorce lawyers, estate lawyers, estate plans, family legal matters, " +
					"custody disputes, probate lawyers, will drafting, trust administration, family mediation, " +
					"divorce settlements, estate planning documents, family law firm"},
			{"criminal and immigration law",
				"defendants, families, immigrants, employers, international students, asylum seekers",
				"criminal defense, DUI defense, DWI lawyer, drug charges, assault charges, white collar crime, " +
					"theft charges, expungement, record sealing, bail hearings, plea negotiations, jury trials, " +
					"appeals, federal criminal defense, immigration lawyer, green cards, family-based immigration, " +
					"employment visas, H-1B visas, citizenship, naturalization, asylum applications, deportation defense, " +
					"removal proceedings, DACA renewals, investor visas, visa applications, consular processing, " +
					"criminal lawyers, criminal charges, immigration attorneys, visa lawyers, defense attorneys, " +
					"immigration cases, criminal cases, immigration services, court defense, " +
					"criminal record checks, work permits, immigration appeals, bail bonds advice"},
		},
	},
	{
		label: "HUMAN_RESOURCES", weight: 3, arch: archServices, size: -1,
		kinds:   "HR services company, staffing agency, recruitment firm",
		names:   "Staffing, Talent, Recruiting, People, Workforce",
		models:  "B2B:8 B2C:2",
		related: "CONSULTING SAAS LEGAL_SERVICES",
		vendors: "greenhouse.io lever.co workday.com bamboohr.com indeed.com bullhorn.com",
		terms: "human resources, HR, employers, employees, candidates, hiring, workforce, talent, jobs, " +
			"recruitment, employment, people management, job seekers, submit your resume, open positions, " +
			"HR solutions, compliance, employer of choice",
		niches: []nicheSpec{
			{"staffing and recruitment",
				"employers, hiring managers, job seekers, warehouses, hospitals, offices",
				"staffing agency, temporary staffing, temp-to-hire, direct hire, recruitment agency, headhunters, " +
					"executive search, light industrial staffing, warehouse jobs, healthcare staffing, travel nurses, " +
					"locum tenens, administrative staffing, accounting staffing, legal staffing, hospitality staffing, " +
					"event staff, seasonal hiring, high-volume recruiting, candidate screening, background checks, " +
					"drug testing, job board, apply online, weekly pay, recruiters, talent acquisition, " +
					"staffing services, recruitment services, job placements, hiring solutions, temporary workers, " +
					"recruitment consultants, staffing solutions, job openings, candidate placement, hiring needs, " +
					"workforce solutions, staffing partner, recruiting services"},
			{"PEO and HR outsourcing",
				"small businesses, startups, HR managers, CFOs, multi-state employers, franchise owners",
				"PEO, professional employer organization, HR outsourcing, co-employment, payroll administration, " +
					"benefits administration services, workers compensation coverage, HR compliance support, " +
					"employee handbooks, HR policies, multi-state compliance, unemployment claims, " +
					"employment practices, HR hotline, fractional HR, HR audits, HR consulting for small business, " +
					"onboarding paperwork, I-9 verification, ACA reporting, health benefits for small business, " +
					"401(k) for employees, global employment, employer of record services, " +
					"outsourced HR, HR services for small business, payroll and HR, HR administration, HR support, " +
					"PEO services, HR outsourcing partner, employee management, HR compliance services, " +
					"benefits packages for employees, workers comp insurance, HR platform, payroll processing services, " +
					"HR experts, " +
					"HR service center, payroll compliance"},
			{"training and leadership development",
				"managers, executives, HR leaders, sales teams, new supervisors, high-potential employees",
				"leadership development, management training, leadership programs, executive development, " +
					"team building, workshops, soft skills training, communication training, conflict resolution, " +
					"diversity and inclusion training, DEI programs, unconscious bias training, sales training, " +
					"customer service training, coaching programs, 360-degree feedback, personality assessments, " +
					"DISC assessments, emotional intelligence, succession planning programs, mentoring programs, " +
					"culture workshops, employee engagement programs, onboarding programs, facilitators, learning journeys, " +
					"leadership training, training programs, corporate training, training workshops, leadership skills, " +
					"management development, training courses, team training, professional development, " +
					"leadership coaching programs, training sessions, skills development, workplace training, " +
					"leadership retreats"},
		},
	},
	{
		label: "GOVERNMENT", weight: 2, arch: archPublic, size: 1,
		kinds:   "public agency, government body, public sector organization",
		names:   "Civic, Public, Municipal, Federal, Govtech",
		models:  "G2C:5 G2B:3 B2G:2",
		related: "NONPROFIT UTILITIES EDUCATION",
		vendors: "granicus.com tylertech.com esri.com civicplus.com salesforce.com",
		terms: "government, public services, residents, citizens, community, public agency, services online, " +
			"public meetings, agendas and minutes, departments, public notices, transparency, accessibility, " +
			"elected officials, budget, open data, contact us, report an issue",
		niches: []nicheSpec{
			{"local government services",
				"residents, businesses, property owners, visitors, community groups, developers",
				"city hall, city council, county government, town services, permits and licenses, building permits, " +
					"business licenses, property taxes, utility billing, trash and recycling schedules, " +
					"parks and recreation, recreation programs, public library, police department, fire department, " +
					"emergency alerts, road closures, street maintenance, zoning and planning, planning commission, " +
					"public hearings, voter registration, elections office, municipal court, pay a ticket, " +
					"animal services, 311 requests, community events calendar, " +
					"city services, local services, council services, resident services, city departments, " +
					"municipal services, town hall, city news, community services, local regulations, " +
					"public works department, city budget"},
			{"national agencies and programs",
				"citizens, taxpayers, veterans, businesses, researchers, applicants",
				"federal agency, national programs, grants, grant applications, funding opportunities, regulations, " +
					"rulemaking, public comment, statistics, national data, reports to parliament, benefits programs, " +
					"tax administration, customs and border services, passport office, national archives, " +
					"public health agency, environmental protection agency, transport authority, agricultural programs, " +
					"small business administration, procurement opportunities, tenders, freedom of information requests, " +
					"press releases, policy papers, agency strategic plan, " +
					"government programs, national agency, government services, federal programs, public programs, " +
					"government funding, government policy, agency services, national services, public consultations, " +
					"government reports, official statistics, agency programs"},
			{"govtech and public sector services",
				"government agencies, municipalities, public safety departments, courts, state agencies, procurement officers",
				"govtech, public sector software, e-government, digital government services, permitting software, " +
					"licensing software, 311 software, citizen engagement platform, public records management, " +
					"agenda management software, council meeting streaming, court case management, public safety software, " +
					"CAD dispatch, records management systems, body cameras, GIS for government, asset management for cities, " +
					"utility billing software, government ERP, grants management software, procurement portals, " +
					"cooperative purchasing contracts, FedRAMP, StateRAMP, accessibility compliance, Section 508, " +
					"government software, public sector technology, civic technology, government cloud, " +
					"digital services for government, government solutions, public sector clients, municipal software, " +
					"government platforms, public sector digital, civic software, government IT, " +
					"online permit applications"},
		},
	},
	{
		label: "NONPROFIT", weight: 4, arch: archPublic, size: -1,
		kinds:   "nonprofit organization, charity, foundation",
		names:   "Foundation, Alliance, Charity, Relief, Initiative",
		models:  "G2C:3 B2C:5 B2B:2",
		related: "EDUCATION GOVERNMENT HEALTHCARE",
		vendors: "blackbaud.com classy.org donorbox.org givebutter.com salesforce.com mailchimp.com",
		terms: "nonprofit, charity, mission, donate, donations, volunteers, communities, impact, programs, " +
			"supporters, annual report, 501(c)(3) status, tax-deductible donations, our mission, get involved, partners, " +
			"fundraising, board of directors",
		niches: []nicheSpec{
			{"community and social services",
				"families in need, youth, seniors, homeless individuals, refugees, local communities",
				"food bank, food pantry, meal programs, homeless shelter, housing assistance, affordable housing programs, " +
					"youth mentoring, after-school programs for youth, job training programs, refugee resettlement, " +
					"domestic violence shelter, crisis hotline, senior services, community center, soup kitchen, " +
					"clothing drives, emergency assistance, rent assistance, case management, literacy programs, " +
					"volunteer opportunities, community outreach, family support services, addiction recovery support, " +
					"community programs, social services, community support, local charity, support services, " +
					"community volunteers, services for families, outreach programs, community organizations, " +
					"poverty relief, charity programs, community partners, youth services, food assistance, " +
					"housing support, community donations"},
			{"international development and relief",
				"vulnerable communities, refugees, disaster survivors, children, farmers, women and girls",
				"humanitarian aid, disaster relief, emergency response, international development, clean water projects, " +
					"wells and sanitation, child sponsorship, education for girls, microfinance, maternal health, " +
					"malaria prevention, vaccination campaigns, nutrition programs, refugee camps, livelihood programs, " +
					"climate resilience, food security, field offices, monitoring and evaluation, " +
					"sustainable development goals, implementing partners, country programs, monthly giving, " +
					"gift aid, legacy giving, " +
					"development programs, relief work, aid programs, global development, humanitarian programs, " +
					"relief efforts, development projects, aid workers, emergency appeals, international aid, " +
					"community development, global health programs, development partners, humanitarian response, " +
					"aid distribution"},
			{"arts, culture and environment causes",
				"members, donors, visitors, artists, conservationists, students",
				"museum foundation, arts council, cultural heritage, historical society, conservation organization, " +
					"wildlife conservation, animal rescue, animal shelter, pet adoption, land trust, habitat restoration, " +
					"tree planting, ocean conservation, beach cleanups, environmental advocacy, citizen science, " +
					"nature reserves, membership program, memberships and benefits, exhibitions funding, artist grants, " +
					"public art projects, music education programs, heritage preservation, guided nature walks, " +
					"arts programs, cultural programs, conservation projects, environmental causes, arts organizations, " +
					"cultural organizations, conservation work, nature conservation, arts funding, culture programs, " +
					"environmental projects, wildlife protection, arts education, conservation volunteers, " +
					"heritage projects"},
			{"health and research charities",
				"patients, caregivers, researchers, donors, families affected, medical professionals",
				"medical research funding, cancer research, patient support programs, disease awareness, " +
					"research grants, clinical research funding, patient advocacy, support groups, helpline, " +
					"charity runs, walkathons, fundraising events, peer-to-peer fundraising, awareness month, " +
					"caregiver resources, hospice charity, children's hospital foundation, rare disease foundation, " +
					"mental health charity, blood drives, organ donation awareness, memorial gifts, " +
					"research breakthroughs, patient stories, " +
					"health charity, research charity, medical research, patient support, research funding, " +
					"health research, disease research, patient services, charity research programs, " +
					"support services for patients, health awareness, research projects, research donors, " +
					"fundraising for research, patient community, research progress"},
		},
	},
}

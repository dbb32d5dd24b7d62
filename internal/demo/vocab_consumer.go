package demo

var consumerIndustries = []industrySpec{
	{
		label: "FOOD_BEVERAGE", weight: 5, arch: archConsumer,
		kinds:   "food company, beverage brand, food producer",
		names:   "Foods, Kitchen, Brewing, Beverages, Bakery",
		models:  "B2C:5 B2B:4 D2C:1",
		related: "AGRICULTURE RETAIL HOSPITALITY",
		vendors: "shopify.com squareup.com toasttab.com klaviyo.com yotpo.com",
		terms: "food and beverage, ingredients, recipes, flavors, taste, quality ingredients, food safety, " +
			"packaging, retailers, stockists, nutrition, allergens, locally sourced produce, small-batch production, wholesale, " +
			"where to buy, new products, natural ingredients",
		niches: []nicheSpec{
			{"craft brewing and distilling",
				"beer lovers, bars, restaurants, bottle shops, distributors, taproom visitors",
				"craft beer, brewery, taproom, IPA, hazy IPA, lager, stout, sour beer, seasonal releases, " +
					"beer cans, growlers, kegs, brewing process, hops, malt, yeast, barrel-aged beer, brewery tours, " +
					"tasting flights, craft distillery, small-batch whiskey, bourbon, gin, vodka, rum, botanicals, " +
					"tasting room, cocktail recipes, distillery tours, bottle release, cider, hard seltzer, mead, " +
					"canning line, beer festivals, brewpub, beer club, " +
					"craft spirits, limited releases, brewery merchandise, beer styles"},
			{"bakery and confectionery",
				"families, cafes, grocery stores, wedding couples, event planners, gift buyers",
				"artisan bakery, sourdough bread, pastries, croissants, cakes, custom cakes, wedding cakes, cupcakes, " +
					"cookies, macarons, donuts, bagels, gluten-free baking, vegan baking, chocolates, bonbons, " +
					"chocolate bars, truffles, candy, gummies, caramels, toffee, confectionery, cacao, bean-to-bar chocolate, " +
					"gift boxes, holiday treats, baking classes, wholesale bread, cafe pastries, dessert catering, " +
					"birthday cakes, seasonal flavors, fresh daily, " +
					"bakery cafe, pastry chefs, cake orders, chocolate shop, sweet treats, bread loaves"},
			{"packaged foods and snacks",
				"grocery shoppers, health-conscious consumers, retailers, convenience stores, distributors, food service buyers",
				"packaged foods, snacks, protein bars, granola, nut butters, plant-based foods, plant-based meat, " +
					"dairy-free alternatives, oat milk, frozen meals, ready meals, sauces, condiments, hot sauce, " +
					"spices and seasonings, pasta, cereals, chips, popcorn, jerky, dried fruit, baby food, " +
					"keto snacks, low-sugar snacks, high-protein snacks, clean label, non-GMO ingredients, private label manufacturing, " +
					"co-packing, shelf life, grocery distribution, category managers, retail placements, food innovation, " +
					"snack brand, grocery products, healthy snacks, packaged meals, snack packs, pantry products"},
			{"coffee and tea",
				"coffee drinkers, cafes, offices, restaurants, subscribers, baristas",
				"specialty coffee, coffee roasters, single origin, espresso blends, roast profiles, green coffee, " +
					"direct trade, fair trade coffee, cold brew, coffee subscriptions, whole bean coffee, ground coffee, " +
					"coffee capsules, pour-over, brewing guides, barista training, coffee shop, cafe menu, latte art, " +
					"office coffee service, wholesale coffee, loose leaf tea, matcha, green tea, herbal tea, chai, " +
					"tea blends, tea ceremonies, kombucha, coffee equipment, grinders, espresso machines, cupping notes, " +
					"coffee beans, roastery, tea shop, coffee bar, espresso drinks, tea sampler, coffee gifts"},
			{"food processing and ingredients",
				"food manufacturers, restaurants chains, bakeries, beverage companies, meal kit companies, distributors",
				"food processing, food ingredients, flavors and extracts, natural colors, sweeteners, starches, " +
					"proteins, plant proteins, emulsifiers for food, food additives, meat processing, poultry processing, " +
					"seafood processing, frozen vegetables, fruit purees, dairy ingredients, cheese production, " +
					"contract food manufacturing, HACCP, SQF certification, BRC certification, USDA inspected, " +
					"cold chain, bulk ingredients, food technologists, product development kitchen, shelf-stable products, " +
					"aseptic processing, retort pouches, co-manufacturing, sensory testing, " +
					"ingredient solutions, processing plant, food production lines, frozen foods production, " +
					"ingredient sourcing, food manufacturing plant, custom blends, bulk packaging, R&D kitchen"},
		},
	},
	{
		label: "CONSUMER_GOODS", weight: 3, arch: archCommerce,
		kinds:   "consumer goods company, consumer brand, household products company",
		names:   "Brands, Goods, Products, Essentials",
		models:  "B2C:5 D2C:3 B2B:2",
		related: "RETAIL E_COMMERCE MANUFACTURING",
		vendors: "shopify.com klaviyo.com yotpo.com amazon.com salsify.com",
		terms: "consumer products, brand, everyday products, households, customers, product range, quality, " +
			"retail partners, product reviews, where to buy, new arrivals, bestsellers, sustainability commitments, " +
			"product safety, satisfaction guarantee, free shipping",
		niches: []nicheSpec{
			{"beauty and personal care",
				"women, men, skincare enthusiasts, salons, spas, beauty retailers",
				"skincare, cleansers, moisturizers, serums, sunscreen, anti-aging, retinol, vitamin C serum, " +
					"hyaluronic acid, face masks, haircare, shampoo, conditioner, hair oils, styling products, " +
					"makeup, foundation, lipstick, mascara, fragrance, perfume, body lotion, body wash, deodorant, " +
					"men's grooming, beard oil, shaving kits, clean beauty, cruelty-free products, vegan formulas, " +
					"dermatologist-tested formulas, skin types, beauty routines, refill packs, salon professional products, " +
					"beauty products, skincare line, beauty brand, self-care, skin concerns"},
			{"home and household products",
				"families, homeowners, renters, parents, pet owners, eco-conscious households",
				"household cleaning products, laundry detergent, dish soap, surface cleaners, eco-friendly cleaning, " +
					"paper towels, trash bags, storage containers, kitchenware, cookware, knives, bakeware, " +
					"home organization, closet storage, bedding, sheets, towels, pillows, mattresses, candles, " +
					"home fragrance, air purifiers, vacuum cleaners, small appliances, blenders, air fryers, " +
					"coffee makers, water filters, pet supplies, dog food, cat litter, pet toys, " +
					"cleaning supplies, home goods, kitchen essentials, home care products, reusable products, " +
					"bath essentials, storage solutions, " +
					"eco refills"},
			{"toys and baby products",
				"parents, grandparents, toddlers, kids, schools, gift shoppers",
				"toys, educational toys, STEM toys, building blocks, wooden toys, plush toys, board games, puzzles, " +
					"dolls, action figures, outdoor toys, ride-on toys, arts and crafts kits, baby products, strollers, " +
					"car seats, baby carriers, cribs, nursery furniture, diapers, baby wipes, baby bottles, " +
					"teething toys, baby clothes, feeding sets, high chairs, baby monitors, play mats, sensory toys, " +
					"Montessori toys, age recommendations, safety standards for toys, " +
					"toy brand, baby gear, kids toys, nursery products, baby essentials, toy collections, gifts for kids, " +
					"baby care"},
			{"household durables and furniture",
				"homeowners, apartment dwellers, interior designers, offices, students, hospitality buyers",
				"furniture, sofas, sectionals, dining tables, chairs, beds, bed frames, dressers, bookcases, " +
					"office chairs, standing desks, outdoor furniture, patio sets, rugs, lighting fixtures, lamps, " +
					"mirrors, wall art, home decor, ready-to-assemble furniture, solid wood furniture, upholstery, " +
					"fabric swatches, custom upholstery, furniture delivery, assembly service, showrooms, " +
					"sustainable furniture, modular sofas, storage beds, kids furniture, home office furniture, " +
					"furniture collections, home furnishings, living room furniture, bedroom furniture, furniture store, " +
					"custom furniture orders, design pieces, furniture care"},
		},
	},
	{
		label: "RETAIL", weight: 6, arch: archCommerce, size: -1,
		kinds:   "retailer, retail store, retail chain",
		names:   "Store, Shop, Outlet, Mart, Emporium",
		models:  "B2C:9 B2B:1",
		related: "E_COMMERCE CONSUMER_GOODS FASHION_APPAREL",
		vendors: "shopify.com squareup.com lightspeedhq.com klaviyo.com google.com",
		terms: "retail, store locations, in-store, shoppers, products, brands, store hours, customer service, " +
			"sales and promotions, gift cards, loyalty program, returns policy, local store, shop online, " +
			"click and collect, new arrivals, staff picks, weekly deals",
		niches: []nicheSpec{
			{"grocery and convenience",
				"families, shoppers, neighborhoods, commuters, students, busy parents",
				"grocery store, supermarket, fresh produce section, butcher counter, deli, bakery department, " +
					"weekly ad, digital coupons, grocery delivery, curbside pickup, organic groceries, local produce, " +
					"pantry staples, frozen foods, dairy aisle, prepared meals, pharmacy counter, convenience store, " +
					"fuel station, snacks and drinks, lottery, ATM, household essentials, bulk foods, international foods, " +
					"specialty cheeses, wine and spirits, fresh seafood, store brand, price match, rewards points, " +
					"grocery shopping, fresh foods, market hall, grocery chain, convenience stores, food aisles, " +
					"weekly groceries, shopping list, grocery rewards"},
			{"home improvement and hardware",
				"DIYers, homeowners, contractors, landscapers, renters, property managers",
				"hardware store, home improvement, power tools, hand tools, lumber, building materials, paint department, " +
					"plumbing supplies, electrical supplies, garden center, plants and soil, outdoor equipment, lawn mowers, " +
					"grills, fasteners, key cutting, tool rental, paint mixing, flooring samples, kitchen displays, " +
					"appliances, lighting and fans, doors and windows, storage and organization, DIY workshops, " +
					"pro desk, contractor accounts, bulk orders, seasonal decor, snow blowers, " +
					"DIY supplies, hardware supplies, home projects, building supplies, tools department, paint supplies, " +
					"lumber yard, home repair supplies, garden supplies, fasteners aisle"},
			{"specialty retail",
				"hobbyists, book lovers, gift shoppers, music fans, outdoor enthusiasts, collectors",
				"bookstore, books and magazines, author events, gift shop, stationery, greeting cards, art supplies, " +
					"craft supplies, yarn and fabrics, hobby shop, model kits, music store, instruments, vinyl records, " +
					"outdoor gear store, camping equipment, bike shop, bicycle repair, running shoes, golf shop, " +
					"jewelry store, watches, engagement rings, optical store, eyeglasses, pet store, toy store, " +
					"garden shop, kitchen store, tea shop, comic books, collectibles, board game cafe, " +
					"independent shop, curated products, specialty shops, hobby supplies, gift ideas, local boutique, " +
					"unique gifts"},
			{"electronics and appliance retail",
				"consumers, gamers, families, small businesses, students, homeowners",
				"electronics store, TVs and home theater, laptops and computers, smartphones, phone accessories, " +
					"tablets, cameras, smart home devices, gaming consoles, video games, headphones and audio, " +
					"home appliances, refrigerators, washers and dryers, dishwashers, ranges and ovens, microwaves, " +
					"appliance installation, haul-away service, tech support, device repair, screen repair, " +
					"trade-in program, open-box deals, extended protection plans, price matching, store pickup, " +
					"delivery and setup, computer repair, printer ink, " +
					"electronics retailer, appliance store, tech deals, home electronics, appliance sales, " +
					"electronics department, gaming gear, smart TVs, appliance repair, tech accessories shop"},
		},
	},
	{
		label: "E_COMMERCE", weight: 5, arch: archCommerce, size: -1,
		kinds:   "online store, ecommerce brand, online retailer",
		names:   "Cart, Deals, Basket, Commerce",
		models:  "D2C:5 B2C:4 C2C:1",
		related: "RETAIL CONSUMER_GOODS TRANSPORTATION_LOGISTICS",
		vendors: "shopify.com klaviyo.com stripe.com gorgias.com yotpo.com algolia.com afterpay.com bigcommerce.com",
		terms: "online store, shop online, free shipping, fast delivery, secure checkout, returns, customer reviews, " +
			"add to cart, order tracking, discount codes, newsletter signup, new customers, bestsellers, " +
			"shipping policy, easy returns, customer support, wishlist",
		niches: []nicheSpec{
			{"direct-to-consumer brands",
				"online shoppers, millennials, subscribers, gift buyers, eco-conscious shoppers, loyal customers",
				"direct-to-consumer, DTC brand, subscription boxes, subscribe and save, bundles, limited drops, " +
					"product launches, founder story, influencer collaborations, user-generated content, referral program, " +
					"loyalty rewards, customer reviews widget, product quiz, personalized recommendations, sustainable packaging, " +
					"carbon-neutral shipping, free returns, size guide, gift cards, shop the look, email marketing, " +
					"SMS marketing, abandoned cart emails, Instagram shop, TikTok shop, pre-orders, back in stock alerts, " +
					"product sampling, starter kits, membership perks, " +
					"online brand, subscription orders, brand community, product bundles, limited editions, " +
					"online exclusives, reorder reminders, DTC marketing, unboxing experience"},
			{"online marketplaces",
				"buyers, sellers, small merchants, collectors, resellers, makers",
				"online marketplace, seller accounts, listings, buyer protection, seller ratings, marketplace fees, " +
					"commission rates, peer-to-peer selling, secondhand marketplace, resale, refurbished goods, " +
					"handmade goods, vintage items, auctions, bidding, buy it now, shipping labels, seller tools, " +
					"escrow payments, dispute resolution, verified sellers, authentication service, featured listings, " +
					"search ranking, category pages, local pickup, classifieds, trade-ins, rental marketplace, " +
					"B2B marketplace, wholesale marketplace, " +
					"marketplace app, buyers and sellers platform, seller dashboard, marketplace listings, seller payouts, " +
					"marketplace search, second-hand goods, listing fees, seller reviews"},
			{"ecommerce agencies and tools",
				"online brands, Shopify merchants, retailers, marketplace sellers, startups, marketing managers",
				"Shopify development, Shopify Plus agency, store design, theme customization, headless commerce, " +
					"platform migration, conversion rate optimization, CRO audits, product page optimization, " +
					"checkout optimization, Amazon seller services, Amazon PPC, marketplace management, product feeds, " +
					"Google Shopping, inventory sync, order management system, multichannel selling, " +
					"product information management, PIM, ecommerce SEO, site speed, app integrations, " +
					"subscription apps, reviews apps, returns management software, shipping software, ecommerce analytics, " +
					"retention marketing, email flows, " +
					"ecommerce agency, store builds, ecommerce consulting, Shopify apps, ecommerce platform, " +
					"online store optimization, store migrations, ecommerce growth, cart optimization, Shopify experts"},
			{"online grocery and meal kits",
				"busy families, professionals, home cooks, seniors, health-focused eaters, students",
				"meal kits, recipe boxes, weekly menus, prepared meals delivery, online groceries, grocery delivery app, " +
					"rapid delivery, quick commerce, 15-minute delivery, fresh ingredients delivered, portioned ingredients, " +
					"meal plans, dietary preferences, vegetarian meals, keto meals, family plans, skip a week, " +
					"delivery slots, insulated packaging, recyclable ice packs, farm-to-door, subscription pausing, " +
					"chef-designed recipes, calorie counts, cooking time, meal prep, snack boxes, pantry add-ons, " +
					"meal delivery, grocery app, weekly meal kits, recipe kits, healthy meal plans, fresh meal boxes, " +
					"online supermarket, meal subscriptions, meal kit menu, cooking kits, grocery orders, " +
					"meal kit delivery"},
		},
	},
	{
		label: "FASHION_APPAREL", weight: 3, arch: archCommerce, size: -1,
		kinds:   "fashion brand, apparel company, clothing label",
		names:   "Fashion, Wear, Clothing, Couture, Style",
		models:  "B2C:5 D2C:4 B2B:1",
		related: "RETAIL E_COMMERCE CONSUMER_GOODS",
		vendors: "shopify.com klaviyo.com yotpo.com loopreturns.com afterpay.com pinterest.com",
		terms: "fashion, clothing, collections, style, fabrics, fit, sizes, seasonal collection, lookbook, " +
			"new season, designers, quality materials, craftsmanship, sustainable fashion, size guide, " +
			"free returns, stockists, shop the collection",
		niches: []nicheSpec{
			{"womenswear",
				"women, fashion lovers, professionals, brides, boutiques, stylists",
				"womenswear, dresses, midi dresses, maxi dresses, blouses, tops, skirts, trousers, tailored pants, " +
					"blazers, knitwear, cardigans, coats, trench coats, jumpsuits, evening wear, occasion dresses, " +
					"bridal gowns, bridesmaid dresses, lingerie, swimwear, loungewear, capsule wardrobe, workwear for women, " +
					"petite sizes, plus sizes, linen collection, silk dresses, printed dresses, handbags, " +
					"jewelry, scarves, styling tips, " +
					"women's collection, women's fashion, dresses collection, women's clothing, new season dresses, " +
					"occasionwear, women's tailoring"},
			{"menswear",
				"men, professionals, grooms, tailoring clients, streetwear fans, gift shoppers",
				"menswear, suits, made-to-measure suits, tailoring, dress shirts, oxford shirts, chinos, denim jeans, " +
					"selvedge denim, polo shirts, t-shirts, sweaters, overshirts, bomber jackets, overcoats, " +
					"ties and pocket squares, leather belts, wallets, dress shoes, loafers, boots, wedding suits, " +
					"suit alterations, casual wear, smart casual, shirt fit guide, workwear jackets, heritage brands, " +
					"wool blazers, cashmere, " +
					"men's collection, men's clothing, men's fashion, menswear essentials, tailored suits, " +
					"men's outerwear, shirts collection, men's shoes, menswear boutique, made-to-order"},
			{"sportswear and activewear",
				"athletes, runners, gym-goers, yoga practitioners, outdoor enthusiasts, teams",
				"activewear, sportswear, leggings, sports bras, running shorts, training tops, hoodies, joggers, " +
					"athleisure, performance fabrics, moisture-wicking, compression wear, running shoes, trainers, " +
					"yoga wear, cycling kit, team uniforms, custom jerseys, outdoor apparel, hiking clothing, " +
					"rain jackets, fleece, base layers, ski wear, recycled polyester, seamless knit, " +
					"athlete ambassadors, gym bags, socks, " +
					"activewear brand, sports clothing, training gear, workout clothes, running apparel, yoga leggings, " +
					"performance apparel, gym wear, sportswear collection, technical fabrics, training shoes"},
			{"footwear and accessories",
				"shoppers, sneaker collectors, professionals, travelers, gift buyers, boutiques",
				"footwear, sneakers, limited edition sneakers, boots, sandals, heels, flats, loafers, kids shoes, " +
					"orthopedic shoes, leather goods, handbags, backpacks, wallets, belts, sunglasses, watches, " +
					"jewelry, earrings, necklaces, rings, hats, caps, scarves, gloves, luggage, travel bags, " +
					"handcrafted leather, vegan leather, shoe care, shoe sizing, resoling, " +
					"shoe store, footwear brand, accessories collection, leather accessories, shoes collection, " +
					"handbags collection, designer accessories, sneaker releases"},
		},
	},
	{
		label: "HOSPITALITY", weight: 4, arch: archConsumer, size: -1,
		kinds:   "hospitality company, hotel group, restaurant group",
		names:   "Hotels, Hospitality, Resorts, Lodge, Inn",
		models:  "B2C:9 B2B:1",
		related: "TRAVEL_TOURISM FOOD_BEVERAGE ENTERTAINMENT",
		vendors: "opentable.com toasttab.com cloudbeds.com siteminder.com mews.com resy.com sevenrooms.com",
		terms: "hospitality, guests, reservations, book now, experience, service, team, locations, " +
			"private events, gift vouchers, opening hours, reviews, welcome, ambience, special occasions, menus",
		niches: []nicheSpec{
			{"hotels and resorts",
				"travelers, families, couples, business travelers, wedding parties, conference groups",
				"hotel rooms, suites, boutique hotel, luxury resort, room rates, best rate guarantee, check-in, " +
					"check-out, spa and wellness, swimming pool, rooftop bar, hotel restaurant, room service, " +
					"concierge, meeting rooms, conference facilities, wedding venue, ballroom, all-inclusive packages, " +
					"beachfront rooms, ocean view, family rooms, pet-friendly hotel, loyalty members, breakfast included, " +
					"airport shuttle, valet parking, late checkout, honeymoon packages, resort amenities, " +
					"hotel stays, resort stays, hotel booking, guest rooms, hotel amenities, resort packages, " +
					"weekend getaways, hotel spa, member rates, room upgrades, meeting packages"},
			{"restaurants and bars",
				"diners, food lovers, families, couples, groups, office parties",
				"restaurant, dining room, menu, chef's tasting menu, seasonal menu, brunch, lunch specials, dinner service, " +
					"wine list, sommelier, cocktail bar, craft cocktails, happy hour, small plates, farm-to-table, " +
					"takeout, delivery orders, online ordering, table reservations, private dining room, outdoor patio, " +
					"bar menu, dessert menu, vegan options, gluten-free menu, live music nights, chef's specials, " +
					"kids menu, gift cards for dining, wine pairing, " +
					"restaurant menu, dinner reservations, bar and grill, neighborhood restaurant, seasonal dishes, " +
					"wine bar, weekend brunch, local ingredients, chef team, dining experience"},
			{"catering and events venues",
				"event planners, couples, corporate clients, nonprofits, party hosts, schools",
				"catering services, event catering, wedding catering, corporate catering, boxed lunches, buffet catering, " +
					"plated dinners, canapes, food trucks, event venue, banquet hall, event spaces, venue hire, " +
					"event planning, wedding planning, rehearsal dinners, galas, holiday parties, conferences catering, " +
					"bar service, mobile bar, staffing for events, tastings, menu customization, dietary accommodations, " +
					"rentals and tableware, floor plans, capacity, event coordinators, outdoor events, " +
					"catering menu, event catering company, venue tours, event packages, wedding venues, corporate events, " +
					"party catering, catering orders, banquet menus, event bookings, venue capacity"},
			{"vacation rentals and hostels",
				"travelers, backpackers, families, digital nomads, groups of friends, students",
				"vacation rentals, holiday homes, cabins, cottages, villas, apartments for rent, serviced apartments, " +
					"short-term stays, long-term stays, hostel, dorm beds, private rooms, shared kitchen, " +
					"self check-in, keyless entry, cleaning fee, house rules, linens provided, hot tub, fireplace, " +
					"mountain cabins, beach houses, glamping, campgrounds, RV parks, guesthouses, bed and breakfast, " +
					"nomad-friendly workspace, weekly discounts, pet-friendly rentals, " +
					"holiday rentals, rental homes, vacation homes, cabin rentals, hostel beds, guest reviews, " +
					"vacation stays, nightly rates, holiday cottages, hostel bar"},
		},
	},
	{
		label: "TRAVEL_TOURISM", weight: 3, arch: archConsumer, size: -1,
		kinds:   "travel company, tour operator, travel agency",
		names:   "Travel, Tours, Trips, Journeys, Voyages",
		models:  "B2C:8 B2B:2",
		related: "HOSPITALITY TRANSPORTATION_LOGISTICS ENTERTAINMENT",
		vendors: "booking.com tripadvisor.com sabre.com rezdy.com fareharbor.com",
		terms: "travel, trips, destinations, itineraries, holidays, vacations, travelers, bookings, " +
			"travel experts, adventures, departures, prices per person, reviews, travel insurance, " +
			"travel inspiration, local guides, book with confidence",
		niches: []nicheSpec{
			{"tour operators",
				"adventure travelers, families, solo travelers, seniors, honeymooners, student groups",
				"guided tours, small group tours, adventure tours, walking tours, cycling tours, safari tours, " +
					"trekking holidays, cultural tours, food tours, wine tours, multi-day tours, day trips, " +
					"tour guides, itinerary day by day, private tours, wildlife tours, expedition cruises, " +
					"river cruises, island hopping, city breaks, photography tours, tour departures, " +
					"accommodation included, meals included, activity level, trip notes, tour deposits, " +
					"responsible travel, local experiences, " +
					"tour packages, group tours, tour itineraries, adventure holidays, tour bookings, guided trips, " +
					"tour leaders, tour dates, travel experiences, tour operator, holiday tours, trekking trips"},
			{"travel agencies",
				"holidaymakers, families, business travelers, honeymooners, cruise passengers, retirees",
				"travel agency, travel agents, vacation packages, package holidays, all-inclusive vacations, " +
					"cruise deals, cruise bookings, flights and hotels, honeymoon planning, destination weddings, " +
					"group travel, luxury travel advisors, custom itineraries, travel consultations, last-minute deals, " +
					"early booking discounts, travel vouchers, visa assistance, passport services, airport transfers, " +
					"car rentals, travel insurance plans, holiday financing, ATOL protected, IATA accredited, " +
					"family holidays, ski holidays, beach holidays, " +
					"holiday packages, travel bookings, vacation planning, travel deals, trip planning, cruise holidays, " +
					"holiday deals, flight bookings, hotel bookings, travel specialists, package tours, travel advisors"},
			{"corporate travel and MICE",
				"companies, event planners, HR teams, sales teams, associations, executives",
				"corporate travel management, business travel, travel policy, online booking tool, duty of care, " +
					"traveler tracking, travel expense management, negotiated hotel rates, airline contracts, " +
					"meetings and events, MICE, incentive trips, conferences and conventions, destination management company, " +
					"DMC, team offsites, corporate retreats, event logistics, group air, ground transportation, " +
					"venue sourcing, event registration, sustainability in travel, carbon offsets for travel, " +
					"travel risk management, 24/7 traveler support, reporting and savings, " +
					"business trips, corporate bookings, event travel, conference travel, incentive travel, " +
					"meeting planners, business travel policy, travel programs, group bookings, corporate events travel, " +
					"travel managers, expense reports, " +
					"travel approvals"},
			{"destination marketing and attractions",
				"visitors, tourists, families, schools, tour groups, locals",
				"tourist attractions, theme parks, museums tickets, zoos, aquariums, observation decks, " +
					"visitor center, city passes, attraction tickets, skip-the-line tickets, guided visits, " +
					"destination marketing organization, visitor guide, things to do, events calendar, " +
					"local festivals, heritage sites, national parks, scenic railways, boat tours, sightseeing buses, " +
					"hop-on hop-off, audio guides, season passes, group discounts, opening times, accessibility information, " +
					"gift shop, visitor reviews, " +
					"tourist information, visitor attractions, day out, family attractions, attraction passes, " +
					"sightseeing tours, local attractions, visitor experiences, things to see, ticket prices, " +
					"tourist guide, attraction map"},
		},
	},
	{
		label: "SPORTS_FITNESS", weight: 3, arch: archConsumer, size: -1,
		kinds:   "fitness company, sports club, fitness studio",
		names:   "Fitness, Sports, Athletics, Gym",
		models:  "B2C:9 B2B:1",
		related: "HEALTHCARE ENTERTAINMENT CONSUMER_GOODS",
		vendors: "mindbodyonline.com glofox.com zenplanner.com shopify.com vimeo.com",
		terms: "fitness, sports, training, workouts, coaches, members, classes, health and wellness, " +
			"performance, community, schedule, free trial class, memberships, results, motivation, " +
			"personal bests, beginners welcome",
		niches: []nicheSpec{
			{"gyms and fitness studios",
				"members, beginners, athletes, busy professionals, seniors, students",
				"gym membership, fitness studio, group fitness classes, HIIT classes, spin classes, indoor cycling, " +
					"pilates reformer, barre classes, yoga studio, hot yoga, CrossFit box, strength training, " +
					"free weights, cardio equipment, personal training, small group training, 24-hour gym, " +
					"class schedule, drop-in rates, intro offer, locker rooms, sauna, body composition scans, " +
					"nutrition coaching, fitness challenges, boxing gym, kickboxing classes, functional training, " +
					"class packs, membership freeze, " +
					"gym classes, fitness classes, gym facilities, workout classes, gym floor, class bookings, " +
					"fitness memberships, studio classes, personal trainers, gym offers, fitness programs"},
			{"sports clubs and academies",
				"kids, parents, youth players, adult leagues, schools, coaches",
				"sports club, football club, soccer academy, tennis club, tennis lessons, golf club, golf lessons, " +
					"swim school, swimming lessons, martial arts school, karate classes, jiu-jitsu, gymnastics, " +
					"basketball training, youth leagues, summer camps, holiday camps, tryouts, player development, " +
					"coaching staff, match fixtures, league tables, club membership, court booking, junior programs, " +
					"adult leagues, skills clinics, team registration, tournament entries, sports facilities, " +
					"club teams, sports academy, youth teams, sports lessons, club fixtures, coaching sessions, " +
					"sports programs, club events, player registration, academy coaches, membership fees"},
			{"fitness equipment and apps",
				"home exercisers, gyms, physical therapists, athletes, hotels, corporate wellness programs",
				"fitness equipment, treadmills, exercise bikes, rowing machines, home gym equipment, dumbbells, " +
					"kettlebells, power racks, resistance bands, commercial gym equipment, gym design, equipment servicing, " +
					"fitness app, workout app, training plans, on-demand workouts, live-streamed classes, " +
					"connected fitness, heart rate monitors, fitness tracking, running app, habit tracking, " +
					"nutrition app, macro tracking, virtual coaching, corporate wellness challenges, gym management software, " +
					"member check-in, class booking app, " +
					"home fitness, fitness gear, workout equipment, gym equipment supplier, fitness tracking app, " +
					"exercise equipment, training app, workout plans, fitness subscriptions, smart fitness, gym machines"},
			{"outdoor and endurance sports",
				"runners, cyclists, triathletes, hikers, climbers, race participants",
				"running events, marathons, half marathons, trail running, ultramarathons, triathlon, cycling events, " +
					"gran fondo, race registration, race results, timing chips, training camps, endurance coaching, " +
					"climbing gym, bouldering, climbing walls, hiking club, mountaineering courses, ski school, " +
					"snowboard lessons, surf school, paddleboarding, kayaking, open water swimming, adventure races, " +
					"obstacle course races, race series, finisher medals, pacing groups, " +
					"endurance events, race calendar, running races, cycling races, outdoor sports, race entries, " +
					"training plans for races, trail races, race day, outdoor adventures, " +
					"training groups"},
		},
	},
	{
		label: "ENTERTAINMENT", weight: 3, arch: archMedia, size: -1,
		kinds:   "entertainment company, production company, entertainment studio",
		names:   "Entertainment, Pictures, Films, Productions, Music",
		models:  "B2C:6 B2B:4",
		related: "MEDIA_PUBLISHING GAMING ADVERTISING_MARKETING",
		vendors: "vimeo.com youtube.com eventbrite.com ticketmaster.com spotify.com",
		terms: "entertainment, audiences, stories, creative team, productions, premieres, fans, talent, " +
			"showreel, awards, audiences worldwide, creative vision, upcoming releases, behind the scenes, " +
			"screenings, live shows",
		niches: []nicheSpec{
			{"film and TV production",
				"broadcasters, streaming platforms, brands, advertisers, distributors, independent filmmakers",
				"film production, TV production, documentaries, feature films, short films, TV series, scripted series, " +
					"unscripted television, reality TV, commercials production, branded content, development slate, " +
					"screenwriters, directors, producers, casting, location scouting, film crew, cinematography, " +
					"camera rental, lighting and grip, post-production, video editing, color grading, visual effects, VFX, " +
					"sound design, film festivals, distribution deals, co-productions, " +
					"production company credits, film projects, TV shows, film crews, production services, film financing, " +
					"series production, shooting schedule, film sets, production slate, post-production studio"},
			{"music and recording",
				"artists, bands, songwriters, labels, music supervisors, listeners",
				"record label, music releases, albums, singles, recording studio, studio sessions, mixing, mastering, " +
					"music production, songwriting, music publishing, sync licensing, royalties, streaming releases, " +
					"playlists, artist management, artist development, tour management, music videos, vinyl pressing, " +
					"merch store, fan club, music distribution, beats, producers, session musicians, rehearsal rooms, " +
					"live recordings, radio promotion, " +
					"music label, new music, recording artists, music catalog, studio recording, music releases calendar, " +
					"music streaming, songwriters camp, music rights, artist roster, music tours"},
			{"live events and concerts",
				"concertgoers, festival fans, promoters, venues, sponsors, touring artists",
				"live events, concerts, music festivals, festival lineup, tickets on sale, ticketing, VIP packages, " +
					"event production, stage design, sound and lighting, live sound, touring, venue booking, " +
					"promoters, headliners, support acts, comedy shows, theater productions, musicals, box office, " +
					"season tickets, event security, crowd management, festival camping, event sponsorship, " +
					"hospitality packages, livestream concerts, event staffing, stage rental, " +
					"concert tickets, event tickets, live music, festival passes, event calendar, live shows, " +
					"concert venues, tour dates, event organizers, live entertainment, ticket sales"},
			{"theater and performing arts",
				"theatergoers, families, schools, patrons, subscribers, community groups",
				"theater, theatre company, plays, performances, season lineup, ballet, dance company, opera, " +
					"symphony orchestra, chamber music, performing arts center, acting classes, drama school, " +
					"youth theater, matinees, subscriptions and memberships, patron program, donors circle, " +
					"box office hours, seating chart, playwrights, rehearsals, costume design, set design, " +
					"touring productions, education outreach, community performances, accessible performances, " +
					"theater season, stage productions, theater tickets, performing arts, live theater, show schedule, " +
					"theater company, dance performances, concerts season, theater education, acting workshops, " +
					"arts center"},
		},
	},
	{
		label: "MEDIA_PUBLISHING", weight: 3, arch: archMedia, size: -1,
		kinds:   "media company, publisher, publishing house",
		names:   "Media, Press, Publishing, Books, Magazine",
		models:  "B2C:6 B2B:4",
		related: "ENTERTAINMENT ADVERTISING_MARKETING EDUCATION",
		vendors: "wordpress.org chartbeat.com piano.io taboola.com outbrain.com doubleclick.net substack.com",
		terms: "media, publishing, readers, audience, editorial, stories, journalism, content, writers, editors, " +
			"subscribers, newsletters, digital edition, advertising opportunities, media kit, latest articles, " +
			"archive, contributors",
		niches: []nicheSpec{
			{"news and magazines",
				"readers, subscribers, advertisers, local communities, professionals, news junkies",
				"news site, breaking news, local news, investigative journalism, magazine, print magazine, " +
					"digital subscriptions, paywall, newsroom, reporters, opinion columns, features, long reads, " +
					"photo essays, podcast episodes, daily newsletter, morning briefing, news alerts, politics coverage, " +
					"business news, sports coverage, culture section, letters to the editor, corrections policy, " +
					"editorial standards, print edition, e-edition, back issues, obituaries, " +
					"news coverage, news stories, magazine issues, digital news, newsletters for readers, news reporting, " +
					"editorial team, news website, magazine subscriptions, special reports, news podcast"},
			{"book publishing",
				"readers, authors, literary agents, booksellers, libraries, schools",
				"book publishing, publishing house, imprints, fiction, nonfiction, children's books, young adult, " +
					"literary fiction, crime novels, cookbooks, memoirs, poetry collections, manuscripts, submissions, " +
					"literary agents, book editors, copyediting, proofreading, cover design, book launches, author tours, " +
					"audiobooks, ebooks, print runs, ISBN, book distribution, rights and permissions, translations, " +
					"self-publishing services, book awards, " +
					"new books, book catalog, publishing list, book releases, authors list, bestselling books, " +
					"book series, children's publishing, book editions, publishing rights, literary prizes"},
			{"B2B and trade media",
				"industry professionals, marketers, executives, event attendees, advertisers, associations",
				"trade publication, industry news, trade magazine, B2B media, industry reports, webinars, " +
					"white papers, sponsored content, lead generation programs, industry awards, trade shows, " +
					"conferences, buyer guides, market intelligence, research subscriptions, industry newsletters, " +
					"editorial calendar, rate card, audience data, event sponsorship packages, podcasts for professionals, " +
					"executive interviews, product roundups, supplier directories, salary surveys, " +
					"industry publication, trade news, professional audience, industry magazine, business events, " +
					"industry conferences, trade audience, B2B publishing, industry data, market reports, " +
					"trade journal, sector newsletters, exhibitor listings, industry rankings, advertorials, CPD articles"},
			{"digital content and podcasts",
				"listeners, viewers, creators, brands, advertisers, communities",
				"podcast network, podcast production, podcast hosting, video podcasts, YouTube channel, creator economy, " +
					"influencers, content studio, digital magazine, explainer videos, social video, short-form video, " +
					"audio storytelling, listener community, episode releases, show notes, guest interviews, " +
					"host-read ads, dynamic ad insertion, sponsorships, Patreon memberships, newsletter publishing, " +
					"blog network, content licensing, viral content, audience growth, creator partnerships, " +
					"podcasts, digital media, video content, creator content, online video, media brand, " +
					"podcast advertising, content creators, audio content, video series, podcast listeners, " +
					"podcast studio, audio network, video creators"},
		},
	},
}
